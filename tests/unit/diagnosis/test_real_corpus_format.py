"""The real-log corpus is well formed: a malformed case would silently drop out of every score."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "data" / "diagnosis_real"
LABELS = set(
    "gpu_oom host_oom nccl_or_distributed missing_dependency file_not_found nan_loss image_pull unschedulable "
    "timeout disk_full cuda_driver device_assert permission_or_auth network_download preempted segfault "
    "output_missing validation_error user_code_error healthy unknown".split()
)
FIX_KINDS = set(
    "reduce_memory increase_memory add_dependency fix_path lower_lr_or_fix_data fix_image change_resources_or_wait "
    "increase_timeout_or_checkpoint free_disk fix_driver_or_image fix_code fix_credentials retry resubmit none".split()
)


def _split_module():
    spec = importlib.util.spec_from_file_location("real_split", ROOT / "split.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_real_corpus_cases_are_well_formed():
    cases = _split_module().load()
    ids = [c["id"] for c in cases]
    assert len(ids) == len(set(ids)), "duplicate ids"
    for c in cases:
        where = f"{c['id']} ({c['source']})"
        assert c["label"] in LABELS, where
        assert c["fix_kind"] in FIX_KINDS, where
        assert c["cause"].strip() and c["framework"].strip() and c["scheduler"].strip(), where
        assert 3 <= len(c["log"].splitlines()) <= 200, where


def test_real_split_rule_is_the_frozen_one():
    mod = _split_module()
    # sha256("a-0001") etc. computed independently of split.py's code path: the stop-19 rule stays reproducible
    import hashlib

    for i in range(1, 300):
        cid = f"a-{i:04d}"
        want = "blind" if int(hashlib.sha256(cid.encode()).hexdigest(), 16) % 100 < 40 else "dev"
        assert mod.split_v1_of(cid) == want
    blind = sum(mod.split_v1_of(f"x-{i}") == "blind" for i in range(2000))
    assert 700 < blind < 900


def test_every_scored_blind_split_is_retired_into_dev_and_keeps_its_rule():
    split_of = _split_module().split_of
    assert {split_of(f"{p}-{i:04d}") for p in "abcdefghijklmnopqrstuvw" for i in range(1, 300)} == {"dev"}
    assert {_split_module().split_v6_of(f"{p}-0001") for p in "tuvw"} == {"blind"}
    assert {split_of(f"{p}-0001") for p in ("x", "y", "z", "za", "zb")} == {"dev"}
    assert {_split_module().split_v7_of(f"{p}-0001") for p in ("x", "y", "z", "za", "zb")} == {"blind"}
    assert {split_of(f"{p}-0001") for p in ("zc", "zd", "ze", "zf", "zg", "zh")} == {"dev"}
    assert {_split_module().split_v8_of(f"{p}-0001") for p in ("zc", "zd", "ze", "zf", "zg", "zh")} == {"blind"}
    assert {split_of(f"{p}-0001") for p in ("zi", "zj", "zk", "zl", "zm")} == {"dev"}
    assert {_split_module().split_v9_of(f"{p}-0001") for p in ("zi", "zj", "zk", "zl", "zm")} == {"blind"}
    assert {split_of(f"{p}-0001") for p in ("zn", "zo", "zp", "zq", "zr")} == {"dev"}
    assert {_split_module().split_v10_of(f"{p}-0001") for p in ("zn", "zo", "zp", "zq", "zr")} == {"blind"}
    assert {split_of(f"{p}-0001") for p in ("zs", "zt", "zu", "zv", "zw")} == {"dev"}
    assert {_split_module().split_v11_of(f"{p}-0001") for p in ("zs", "zt", "zu", "zv", "zw")} == {"blind"}


def test_blind_v12_is_retired_into_dev_and_keeps_its_rule():
    split_of = _split_module().split_of
    assert {split_of(f"{p}-0001") for p in ("zx", "zy", "zz", "zza", "zzb")} == {"dev"}
    assert {_split_module().split_v12_of(f"{p}-0001") for p in ("zx", "zy", "zz", "zza", "zzb")} == {"blind"}
    assert {_split_module().split_v12_of(f"{p}-0001") for p in ("zs", "zw", "a", "zr")} == {"dev"}
    assert {_split_module().split_v5_of(f"{p}-0001") for p in "opqrs"} == {"blind"}
    assert {_split_module().split_v4_of(f"{p}-0001") for p in "lmn"} == {"blind"}
    assert {_split_module().split_v3_of(f"{p}-0001") for p in "ijk"} == {"blind"}
    assert {_split_module().split_v2_of(f"{p}-0001") for p in "cde"} == {"blind"}


def test_blind_v13_is_retired_into_dev_and_keeps_its_rule():
    split_of = _split_module().split_of
    assert {split_of(f"{p}-0001") for p in ("zzc", "zzd", "zze", "zzf", "zzg")} == {"dev"}
    assert {_split_module().split_v13_of(f"{p}-0001") for p in ("zzc", "zzd", "zze", "zzf", "zzg")} == {"blind"}
    assert {_split_module().split_v13_of(f"{p}-0001") for p in ("zz", "zzb", "zx", "a")} == {"dev"}


def test_blind_v14_is_retired_into_dev_and_keeps_its_rule():
    split_of = _split_module().split_of
    assert {split_of(f"{p}-0001") for p in ("zzh", "zzi", "zzj", "zzk", "zzl")} == {"dev"}
    assert {_split_module().split_v14_of(f"{p}-0001") for p in ("zzh", "zzi", "zzj", "zzk", "zzl")} == {"blind"}
    assert {_split_module().split_v14_of(f"{p}-0001") for p in ("zzg", "zzc", "zz", "a")} == {"dev"}


def test_blind_v15_is_retired_into_dev_and_keeps_its_rule():
    split_of = _split_module().split_of
    assert {split_of(f"{p}-0001") for p in ("zzm", "zzn", "zzo", "zzp", "zzq")} == {"dev"}
    assert {_split_module().split_v15_of(f"{p}-0001") for p in ("zzm", "zzn", "zzo", "zzp", "zzq")} == {"blind"}
    assert {_split_module().split_v15_of(f"{p}-0001") for p in ("zzl", "zzh", "zz", "a")} == {"dev"}


def test_blind_v16_is_retired_into_dev_and_keeps_its_rule():
    split_of = _split_module().split_of
    assert {split_of(f"{p}-0001") for p in ("zzr", "zzs", "zzt", "zzu", "zzv")} == {"dev"}
    assert {_split_module().split_v16_of(f"{p}-0001") for p in ("zzr", "zzs", "zzt", "zzu", "zzv")} == {"blind"}
    assert {_split_module().split_v16_of(f"{p}-0001") for p in ("zzq", "zzm", "zz", "a")} == {"dev"}


def test_blind_v17_is_retired_into_dev_and_keeps_its_rule():
    split_of = _split_module().split_of
    assert {split_of(f"{p}-0001") for p in ("zzw", "zzx", "zzy", "zzz", "zzza")} == {"dev"}
    assert {_split_module().split_v17_of(f"{p}-0001") for p in ("zzw", "zzx", "zzy", "zzz", "zzza")} == {"blind"}
    assert {_split_module().split_v17_of(f"{p}-0001") for p in ("zzv", "zzr", "zw", "zz", "zx", "a")} == {"dev"}


def test_blind_v18_is_retired_into_dev_and_keeps_its_rule():
    split_of = _split_module().split_of
    assert {split_of(f"{p}-0001") for p in ("zzzb", "zzzc", "zzzd", "zzze", "zzzf")} == {"dev"}
    assert {_split_module().split_v18_of(f"{p}-0001") for p in ("zzzb", "zzzc", "zzzd", "zzze", "zzzf")} == {"blind"}
    assert {_split_module().split_v18_of(f"{p}-0001") for p in ("zzza", "zzz", "zzw", "zz", "zzb", "a")} == {"dev"}


def test_blind_v19_is_retired_into_dev_and_keeps_its_rule():
    split_of = _split_module().split_of
    assert {split_of(f"{p}-0001") for p in ("zzzg", "zzzh", "zzzi", "zzzj", "zzzk")} == {"dev"}
    assert {_split_module().split_v19_of(f"{p}-0001") for p in ("zzzg", "zzzh", "zzzi", "zzzj", "zzzk")} == {"blind"}
    assert {_split_module().split_v19_of(f"{p}-0001") for p in ("zzzf", "zzzb", "zzza", "zz", "a")} == {"dev"}


def test_blind_v20_is_retired_into_dev_and_keeps_its_rule():
    split_of = _split_module().split_of
    assert {split_of(f"{p}-0001") for p in ("zzzl", "zzzm", "zzzn", "zzzo", "zzzp")} == {"dev"}
    assert {_split_module().split_v20_of(f"{p}-0001") for p in ("zzzl", "zzzm", "zzzn", "zzzo", "zzzp")} == {"blind"}
    assert {_split_module().split_v20_of(f"{p}-0001") for p in ("zzzk", "zzzg", "zzzf", "zzz", "a")} == {"dev"}


def test_blind_v21_is_retired_into_dev_and_keeps_its_rule():
    split_of = _split_module().split_of
    assert {split_of(f"{p}-0001") for p in ("zzzq", "zzzr", "zzzs", "zzzt", "zzzu")} == {"dev"}
    assert {_split_module().split_v21_of(f"{p}-0001") for p in ("zzzq", "zzzr", "zzzs", "zzzt", "zzzu")} == {"blind"}
    assert {_split_module().split_v21_of(f"{p}-0001") for p in ("zzzp", "zzzl", "zzzk", "zzz", "a")} == {"dev"}


def test_blind_v22_is_retired_into_dev_and_keeps_its_rule():
    split_of = _split_module().split_of
    assert {split_of(f"{p}-0001") for p in ("zzzv", "zzzw", "zzzx", "zzzy", "zzzz")} == {"dev"}
    assert {_split_module().split_v22_of(f"{p}-0001") for p in ("zzzv", "zzzw", "zzzx", "zzzy", "zzzz")} == {"blind"}
    assert {_split_module().split_v22_of(f"{p}-0001") for p in ("zzzu", "zzzq", "zzzp", "zzz", "zzzza", "a")} == {"dev"}


def test_blind_v23_is_retired_into_dev_and_keeps_its_rule():
    split_of = _split_module().split_of
    assert {split_of(f"{p}-0001") for p in ("zzzza", "zzzzb", "zzzzc", "zzzzd", "zzzze")} == {"dev"}
    assert {_split_module().split_v23_of(f"{p}-0001") for p in ("zzzza", "zzzzb", "zzzzc", "zzzzd", "zzzze")} == {
        "blind"
    }
    assert {_split_module().split_v23_of(f"{p}-0001") for p in ("zzzz", "zzzv", "zzzzf", "zzz", "a")} == {"dev"}


def test_blind_v24_was_frozen_then_retired_into_dev():
    mod = _split_module()
    assert {mod.split_of(f"{p}-0001") for p in ("zzzzf", "zzzzg", "zzzzh", "zzzzi", "zzzzj")} == {"dev"}
    assert {mod.split_v24_of(f"{p}-0001") for p in ("zzzzf", "zzzzg", "zzzzh", "zzzzi", "zzzzj")} == {"blind"}
    assert {mod.split_v24_of(f"{p}-0001") for p in ("zzzze", "zzzza", "zzzzk", "zzz", "a")} == {"dev"}


def test_blind_v25_was_frozen_then_retired_into_dev():
    mod = _split_module()
    assert {mod.split_of(f"{p}-0001") for p in ("zzzzk", "zzzzl", "zzzzm", "zzzzn", "zzzzo")} == {"dev"}
    assert {mod.split_v25_of(f"{p}-0001") for p in ("zzzzk", "zzzzl", "zzzzm", "zzzzn", "zzzzo")} == {"blind"}
    assert {mod.split_v25_of(f"{p}-0001") for p in ("zzzzj", "zzzzf", "zzzzp", "zzz", "a")} == {"dev"}


def test_blind_v26_was_frozen_then_retired_into_dev():
    mod = _split_module()
    assert {mod.split_of(f"{p}-0001") for p in ("zzzzp", "zzzzq", "zzzzr", "zzzzs", "zzzzt")} == {"dev"}
    assert {mod.split_v26_of(f"{p}-0001") for p in ("zzzzp", "zzzzq", "zzzzr", "zzzzs", "zzzzt")} == {"blind"}
    assert {mod.split_v26_of(f"{p}-0001") for p in ("zzzzo", "zzzzk", "zzzzu", "zzz", "a")} == {"dev"}


def test_blind_v27_was_frozen_then_retired_into_dev():
    mod = _split_module()
    assert {mod.split_of(f"{p}-0001") for p in ("zzzzu", "zzzzv", "zzzzw", "zzzzx", "zzzzy")} == {"dev"}
    assert {mod.split_v27_of(f"{p}-0001") for p in ("zzzzu", "zzzzv", "zzzzw", "zzzzx", "zzzzy")} == {"blind"}
    assert {mod.split_v27_of(f"{p}-0001") for p in ("zzzzt", "zzzzp", "zzzzz", "zzz", "a")} == {"dev"}


def test_blind_v28_was_frozen_then_retired_into_dev():
    mod = _split_module()
    assert {mod.split_of(f"{p}-0001") for p in ("zzzzz", "zzzzza", "zzzzzb", "zzzzzc", "zzzzzd")} == {"dev"}
    assert {mod.split_v28_of(f"{p}-0001") for p in ("zzzzz", "zzzzza", "zzzzzb", "zzzzzc", "zzzzzd")} == {"blind"}
    assert {mod.split_v28_of(f"{p}-0001") for p in ("zzzzy", "zzzzu", "zzzzze", "zzzz", "a")} == {"dev"}


def test_blind_v29_was_frozen_then_retired_into_dev():
    mod = _split_module()
    assert {mod.split_of(f"{p}-0001") for p in ("zzzzze", "zzzzzf", "zzzzzg", "zzzzzh", "zzzzzi")} == {"dev"}
    assert {mod.split_v29_of(f"{p}-0001") for p in ("zzzzze", "zzzzzf", "zzzzzg", "zzzzzh", "zzzzzi")} == {"blind"}
    assert {mod.split_v29_of(f"{p}-0001") for p in ("zzzzzd", "zzzzz", "zzzzzj", "zzzz", "a")} == {"dev"}


def test_blind_v30_was_frozen_then_retired_into_dev():
    mod = _split_module()
    assert {mod.split_of(f"{p}-0001") for p in ("zzzzzj", "zzzzzk", "zzzzzl", "zzzzzm", "zzzzzn")} == {"dev"}
    assert {mod.split_v30_of(f"{p}-0001") for p in ("zzzzzj", "zzzzzk", "zzzzzl", "zzzzzm", "zzzzzn")} == {"blind"}
    assert {mod.split_v30_of(f"{p}-0001") for p in ("zzzzzi", "zzzzze", "zzzzzo", "zzzz", "a")} == {"dev"}


def test_blind_v31_was_frozen_then_retired_into_dev():
    mod = _split_module()
    assert {mod.split_of(f"{p}-0001") for p in ("zzzzzo", "zzzzzp", "zzzzzq", "zzzzzr", "zzzzzs")} == {"dev"}
    assert {mod.split_v31_of(f"{p}-0001") for p in ("zzzzzo", "zzzzzp", "zzzzzq", "zzzzzr", "zzzzzs")} == {"blind"}
    assert {mod.split_v31_of(f"{p}-0001") for p in ("zzzzzn", "zzzzzj", "zzzzzt", "zzzz", "a")} == {"dev"}


def test_blind_v32_was_frozen_then_retired_into_dev():
    mod = _split_module()
    assert {mod.split_of(f"{p}-0001") for p in ("zzzzzt", "zzzzzu", "zzzzzv", "zzzzzw", "zzzzzx")} == {"dev"}
    assert {mod.split_v32_of(f"{p}-0001") for p in ("zzzzzt", "zzzzzu", "zzzzzv", "zzzzzw", "zzzzzx")} == {"blind"}
    assert {mod.split_v32_of(f"{p}-0001") for p in ("zzzzzs", "zzzzzo", "zzzzzy", "zzzz", "a")} == {"dev"}


def test_blind_v33_was_frozen_then_retired_into_dev():
    mod = _split_module()
    assert {mod.split_of(f"{p}-0001") for p in ("zzzzzy", "zzzzzz", "zzzzzza", "zzzzzzb", "zzzzzzc")} == {"dev"}
    assert {mod.split_v33_of(f"{p}-0001") for p in ("zzzzzy", "zzzzzz", "zzzzzza", "zzzzzzb", "zzzzzzc")} == {"blind"}
    assert {mod.split_v33_of(f"{p}-0001") for p in ("zzzzzx", "zzzzzt", "zzzzzzd", "zzzz", "a")} == {"dev"}


def test_blind_v34_was_frozen_then_retired_into_dev():
    mod = _split_module()
    assert {mod.split_of(f"{p}-0001") for p in ("zzzzzzd", "zzzzzze", "zzzzzzf", "zzzzzzg", "zzzzzzh")} == {"dev"}
    assert {mod.split_v34_of(f"{p}-0001") for p in ("zzzzzzd", "zzzzzze", "zzzzzzf", "zzzzzzg", "zzzzzzh")} == {"blind"}
    assert {mod.split_v34_of(f"{p}-0001") for p in ("zzzzzzc", "zzzzzy", "zzzzzzi", "zzzz", "a")} == {"dev"}


def test_blind_v35_was_frozen_then_retired_into_dev():
    mod = _split_module()
    assert {mod.split_of(f"{p}-0001") for p in ("zzzzzzi", "zzzzzzj", "zzzzzzk", "zzzzzzl", "zzzzzzm")} == {"dev"}
    assert {mod.split_v35_of(f"{p}-0001") for p in ("zzzzzzi", "zzzzzzj", "zzzzzzk", "zzzzzzl", "zzzzzzm")} == {"blind"}
    assert {mod.split_v35_of(f"{p}-0001") for p in ("zzzzzzh", "zzzzzzd", "zzzzzzn", "zzzz", "a")} == {"dev"}


def test_blind_v36_was_frozen_then_retired_into_dev():
    mod = _split_module()
    assert {mod.split_of(f"{p}-0001") for p in ("zzzzzzn", "zzzzzzo", "zzzzzzp", "zzzzzzq", "zzzzzzr")} == {"dev"}
    assert {mod.split_v36_of(f"{p}-0001") for p in ("zzzzzzn", "zzzzzzo", "zzzzzzp", "zzzzzzq", "zzzzzzr")} == {"blind"}
    assert {mod.split_v36_of(f"{p}-0001") for p in ("zzzzzzm", "zzzzzzi", "zzzzzzs", "zzzz", "a")} == {"dev"}


def test_blind_v37_was_frozen_then_retired_into_dev():
    mod = _split_module()
    assert {mod.split_of(f"{p}-0001") for p in ("zzzzzzs", "zzzzzzt", "zzzzzzu", "zzzzzzv", "zzzzzzw")} == {"dev"}
    assert {mod.split_v37_of(f"{p}-0001") for p in ("zzzzzzs", "zzzzzzt", "zzzzzzu", "zzzzzzv", "zzzzzzw")} == {"blind"}
    assert {mod.split_v37_of(f"{p}-0001") for p in ("zzzzzzr", "zzzzzzn", "zzzzzzx", "zzzz", "a")} == {"dev"}


def test_blind_v38_was_frozen_then_retired_into_dev():
    mod = _split_module()
    assert {mod.split_of(f"{p}-0001") for p in ("zzzzzzx", "zzzzzzy", "zzzzzzz", "zzzzzzza", "zzzzzzzb")} == {"dev"}
    assert {mod.split_v38_of(f"{p}-0001") for p in ("zzzzzzx", "zzzzzzy", "zzzzzzz", "zzzzzzza", "zzzzzzzb")} == {
        "blind"
    }
    assert {mod.split_v38_of(f"{p}-0001") for p in ("zzzzzzw", "zzzzzzs", "zzzzzzzc", "zzzz", "a")} == {"dev"}


def test_blind_v39_was_frozen_then_retired_into_dev():
    mod = _split_module()
    assert {mod.split_of(f"{p}-0001") for p in ("zzzzzzzc", "zzzzzzzd", "zzzzzzze", "zzzzzzzf", "zzzzzzzg")} == {"dev"}
    assert {mod.split_v39_of(f"{p}-0001") for p in ("zzzzzzzc", "zzzzzzzd", "zzzzzzze", "zzzzzzzf", "zzzzzzzg")} == {
        "blind"
    }
    assert {mod.split_v39_of(f"{p}-0001") for p in ("zzzzzzzb", "zzzzzzx", "zzzzzzzh", "zzzz", "a")} == {"dev"}


def test_blind_v40_was_frozen_then_retired_into_dev():
    mod = _split_module()
    assert {mod.split_of(f"{p}-0001") for p in ("zzzzzzzh", "zzzzzzzi", "zzzzzzzj", "zzzzzzzk", "zzzzzzzl")} == {"dev"}
    assert {mod.split_v40_of(f"{p}-0001") for p in ("zzzzzzzh", "zzzzzzzi", "zzzzzzzj", "zzzzzzzk", "zzzzzzzl")} == {
        "blind"
    }
    assert {mod.split_v40_of(f"{p}-0001") for p in ("zzzzzzzg", "zzzzzzzc", "zzzzzzzm", "zzzz", "a")} == {"dev"}


def test_blind_v41_was_frozen_then_retired_into_dev():
    mod = _split_module()
    assert {mod.split_of(f"{p}-0001") for p in ("zzzzzzzm", "zzzzzzzn", "zzzzzzzo", "zzzzzzzp", "zzzzzzzq")} == {"dev"}
    assert {mod.split_v41_of(f"{p}-0001") for p in ("zzzzzzzm", "zzzzzzzn", "zzzzzzzo", "zzzzzzzp", "zzzzzzzq")} == {
        "blind"
    }
    assert {mod.split_v41_of(f"{p}-0001") for p in ("zzzzzzzl", "zzzzzzzh", "zzzzzzzr", "zzzz", "a")} == {"dev"}


def test_blind_v42_was_frozen_then_retired_into_dev():
    mod = _split_module()
    assert {mod.split_of(f"{p}-0001") for p in ("zzzzzzzr", "zzzzzzzs", "zzzzzzzt", "zzzzzzzu", "zzzzzzzv")} == {"dev"}
    assert {mod.split_v42_of(f"{p}-0001") for p in ("zzzzzzzr", "zzzzzzzs", "zzzzzzzt", "zzzzzzzu", "zzzzzzzv")} == {
        "blind"
    }
    assert {mod.split_v42_of(f"{p}-0001") for p in ("zzzzzzzq", "zzzzzzzm", "zzzzzzzw", "zzzz", "a")} == {"dev"}


def test_blind_v43_is_named_before_it_is_collected():
    mod = _split_module()
    assert mod.BLIND_FROZEN is None  # open: the benchmark refuses to score it until it is frozen
    assert {mod.split_of(f"{p}-0001") for p in ("zzzzzzzw", "zzzzzzzx", "zzzzzzzy", "zzzzzzzz", "zzzzzzzza")} == {
        "blind"
    }
    assert {
        mod.split_of(f"{p}-0001") for p in ("zzzzzzzv", "zzzzzzzr", "zzzzzzzzb", "zzzzzzz", "zzzzz", "zz", "a")
    } == {"dev"}
