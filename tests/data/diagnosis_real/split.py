"""The real-log corpus (issue 14): its frozen blind/dev split and a loader.

The split is a pure function of the case id, fixed before any score was looked at, so
nobody can move a case between splits after seeing how the diagnoser does on it.

Two generations:
- blind v1 (stop 19): a hash-chosen 40% of parts a and b, scored once before and once after that
  stop's work. Having been scored twice it is no longer an estimate, so it is retired into `dev`.
- blind v2 (stop 20): every case of parts c, d and e, collected from threads not in parts a/b and
  frozen before that stop's diagnosis work; scored once before and once after it. Having been scored
  twice it is retired into `dev` at stop 21 (as a validation set: see README-v3.md).
- blind v3 (stop 21): every case of parts i, j and k, collected from threads not in parts a-h and frozen
  before it is scored; scored once with the stop's starting code and once after the stop's work
  (75.6% -> 80.1% labels), then retired into `dev`.
- blind v4 (stop 21, second round): every case of parts l, m and n, from threads not in parts a-k, frozen
  before it is scored; scored once with the stop's starting code and once after the second round
  (75.6% -> 78.0% labels), then retired into `dev` at stop 22.
- blind v5 (stop 22): every case of parts o, p, q, r and s, from threads and forum posts not in parts a-n, frozen
  before it is scored; scored once with the stop's starting code and once after the stop's work (78.5% -> 79.3%
  labels), then retired into `dev` at stop 23.
- blind v6 (stop 23): every case of parts t, u, v and w, from threads and committed job logs not in parts a-s,
  frozen before it is scored; scored once with the stop's starting code and once after the stop's work (72.4% ->
  74.0% labels), then retired into `dev` in the same stop so its misses could be studied.
- blind v7 (stop 24): every case of parts x, y, z, za and zb, from threads and committed job logs not in parts
  a-w, frozen before it is scored (`README-v7.md`); scored once with the stop's starting code and once after the
  stop's work (83.3% -> 87.2% labels), then retired into `dev` in the same stop so its misses could be studied.
- blind v8 (stop 25): every case of parts zc, zd, ze, zf, zg and zh, from threads and committed job logs not in
  parts a-zb, frozen before it is scored (`README-v8.md`); scored once with the stop's starting code and once after
  the stop's work (80.2% -> 80.8% labels), then retired into `dev` in the same stop so its misses could be studied.
- blind v9 (stop 26): every case of parts zi, zj, zk, zl and zm, from threads and committed job logs not in parts
  a-zh. Its parts were named here before any of them was collected, so no dev run ever read one; frozen when its
  collectors landed (`README-v9.md`); scored once with the stop's starting code and once after the stop's work
  (85.3% -> 85.3% labels), then retired into `dev` in the same stop so its misses could be studied.
- blind v10 (stop 27): every case of parts zn, zo, zp, zq and zr, from threads and committed job logs not in
  parts a-zm. Its parts were named here before any of them was collected, so no dev run ever read one; frozen when
  its collectors landed (`README-v10.md`); scored once with the stop's starting code and once after the stop's work
  (84.9% -> 84.9% labels), then retired into `dev` in the same stop so its misses could be studied.
- blind v11 (stop 28): every case of parts zs, zt, zu, zv and zw, from threads and committed job logs not in parts
  a-zr (committed files only from repositories no earlier part used). Its parts were named here before any of them
  was collected, so no dev run ever read one; frozen when its collectors landed (`README-v11.md`); scored once with
  the stop's starting code and once after the stop's work (81.5% -> 81.5% labels), then retired into `dev` in the
  same stop so its misses could be studied.
- blind v12 (stop 29): every case of parts zx, zy, zz, zza and zzb, from threads and committed job logs not in
  parts a-zw (committed files only from repositories no earlier part used). Its parts were named here before any
  of them was collected, so no dev run ever read one; frozen when its collectors landed (`README-v12.md`); scored
  once with the stop's starting code and once after the stop's work (79.7% -> 79.7% labels), then retired into
  `dev` in the same stop so its misses can be studied.
- blind v13 (stop 30): every case of parts zzc, zzd, zze, zzf and zzg, from threads and committed job logs not in
  parts a-zzb (committed files only from repositories no earlier part used). Its parts were named here before any
  of them was collected, so no dev run ever read one; frozen when its collectors landed (`README-v13.md`); scored
  once with the stop's starting code and once after the stop's work (82.1% -> 82.1% labels), then retired into
  `dev` in the same stop so its misses can be studied.
- blind v14 (stop 31): every case of parts zzh, zzi, zzj, zzk and zzl, from threads and committed job logs not in
  parts a-zzg (committed files only from repositories no earlier part used). Its parts were named here before any
  of them was collected, so no dev run ever read one; frozen when its collectors landed (`README-v14.md`); scored
  once with the stop's starting code and once after the stop's work (81.1% -> 81.1% labels), then retired into
  `dev` in the same stop so its misses can be studied.
- blind v15 (stop 32): every case of parts zzm, zzn, zzo, zzp and zzq, committed job logs not in parts a-zzl (only
  from repositories no earlier part used). Its parts were named here before any of them was collected, so no dev
  run ever read one; frozen when its collectors landed (`README-v15.md`); scored once with the stop's starting code
  and once after the stop's work (85.2% -> 85.2% labels), then retired into `dev` in the same stop so its misses
  can be studied.
- blind v16 (stop 33): every case of parts zzr, zzs, zzt, zzu and zzv, from threads and committed job logs not in
  parts a-zzq (committed files only from repositories no earlier part used). Its parts were named here before any
  of them was collected, so no dev run ever read one; frozen when its collectors landed (`README-v16.md`); scored
  once with the stop's starting code and once after the stop's work (83.6% -> 84.8% labels), then retired into
  `dev` in the same stop so its misses can be studied.
- blind v17 (stop 34): every case of parts zzw, zzx, zzy, zzz and zzza, from threads and committed job logs not in
  parts a-zzv (committed files only from repositories no earlier part used). Its parts were named here before any
  of them was collected, so no dev run ever read one; frozen when its collectors landed (`README-v17.md`); scored
  once with the stop's starting code and once after the stop's work (85.9% -> 85.9% labels), then retired into
  `dev` in the same stop so its misses can be studied.
- blind v18 (stop 35): every case of parts zzzb, zzzc, zzzd, zzze and zzzf, from threads and committed job logs
  not in parts a-zzza (committed files only from repositories no earlier part used). Its parts were named here before
  any of them was collected, so no dev run ever read one; frozen when its collectors landed (`README-v18.md`); scored
  once with the stop's starting code and once after the stop's work (81.9% -> 81.9% labels), then retired into
  `dev` in the same stop so its misses can be studied.
- blind v19 (stop 36): every case of parts zzzg, zzzh, zzzi, zzzj and zzzk, from threads and committed job logs
  not in parts a-zzzf (committed files only from repositories no earlier part used). Its parts are named here before
  any of them was collected, so no dev run ever read one. Collected over stops 37 and 38 and frozen at 176 cases
  (`README-v19.md`); scored once with stop 38's starting code and once after its work (88.1% -> 88.1% labels), then
  retired into `dev` in the same stop so its misses can be studied.
- blind v20 (stop 38): every case of parts zzzl, zzzm, zzzn, zzzo and zzzp, from threads and committed job logs not in
  parts a-zzzk (committed files only from repositories no earlier part used). Its parts were named before any of them
  was collected, so no dev run ever read one. Collected in stop 42 and frozen at 266 cases (`README-v20.md`); scored
  once with that stop's starting code and once with its code at the freeze (79.3% -> 79.3% labels), then retired
  into `dev` in the same stop so its misses can be studied.
- blind v21 (stop 42): every case of parts zzzq, zzzr, zzzs, zzzt and zzzu, from threads and committed job logs not in
  parts a-zzzp (committed files only from repositories no earlier part used). Its parts were named before any of
  them was collected, so no dev run ever read one. Collected in stop 43 and frozen at 178 cases (`README-v21.md`);
  scored once with that stop's starting code and once with its code at the freeze (84.3% -> 84.3% labels), then
  retired into `dev` in the same stop so its misses can be studied.
- blind v22 (stop 43): every case of parts zzzv, zzzw, zzzx, zzzy and zzzz, from threads and committed job logs not in
  parts a-zzzu (committed files only from repositories no earlier part used). Its parts were named before any of
  them was collected, so no dev run ever read one. Collected in stops 43 and 44 and frozen at 169 cases
  (`README-v22.md`); scored once with stop 44's starting code and once with its code at the freeze (74.0% -> 74.0%
  labels), then retired into `dev` in the same stop so its misses can be studied.
- blind v23 (stop 44): every case of parts zzzza, zzzzb, zzzzc, zzzzd and zzzze, from threads and committed job logs
  not in parts a-zzzz (committed files only from repositories no earlier part used). Its parts were named before any
  of them was collected, so no dev run ever read one. Collected in stops 44 and 45 and frozen at 201 cases
  (`README-v23.md`); scored once with stop 45's starting code and once with its code at the freeze (77.6% -> 77.6%
  labels), then retired into `dev` in the same stop so its misses can be studied.
- blind v24 (stop 45): every case of parts zzzzf, zzzzg, zzzzh, zzzzi and zzzzj, from threads and committed job logs
  not in parts a-zzzze (committed files only from repositories no earlier part used). Its parts are named here before
  any of them was collected, so no dev run ever read one. Collected in stops 45 and 46 and frozen at 150 cases
  (`README-v24.md`); scored once with stop 46's starting code and once with its code at the freeze (82.7% -> 82.7%
  labels), then retired into `dev` in the same stop so its misses can be studied.
- blind v25 (stop 46): every case of parts zzzzk, zzzzl, zzzzm, zzzzn and zzzzo, from threads and committed job logs
  not in parts a-zzzzj (committed files only from repositories no earlier part used). Its parts were named before
  any of them was collected, so no dev run ever read one. Collected in stop 47 and frozen at 164 cases
  (`README-v25.md`); scored once with stop 47's starting code and once with its code at the freeze (78.7% -> 78.7%
  labels), then retired into `dev` in the same stop so its misses can be studied.
- blind v26 (stop 47): every case of parts zzzzp, zzzzq, zzzzr, zzzzs and zzzzt, from threads and committed job logs
  not in parts a-zzzzo (committed files only from repositories no earlier part used). Its parts were named before
  any of them was collected, so no dev run ever read one. Collected in stops 47 and 48 and frozen at 226 cases
  (`README-v26.md`); scored once with stop 48's starting code and once with its code at the freeze (76.1% -> 76.1%
  labels), then retired into `dev` in the same stop so its misses can be studied.
- blind v27 (stop 48): every case of parts zzzzu, zzzzv, zzzzw, zzzzx and zzzzy, from threads and committed job logs
  not in parts a-zzzzt (committed files only from repositories no earlier part used). Its parts were named before
  any of them was collected, so no dev run ever read one. Collected in stops 48 and 49 and frozen at
  2026-12-05T04:28Z with 171 cases (`README-v27.md`); scored once with stop 49's starting code and once with its
  code at the freeze (79.5% -> 79.5% labels), then retired into `dev` in stop 50 so its misses can be studied.
- blind v28 (stop 50): every case of parts zzzzz, zzzzza, zzzzzb, zzzzzc and zzzzzd, from threads and committed job
  logs not in parts a-zzzzy (committed files only from repositories no earlier part used). Its parts were named
  before any of them was collected, so no dev run ever read one. Collected in stops 51-53 and frozen at
  2026-12-05T17:57Z with 254 cases (`README-v28.md`); scored with stop 53's starting code, which is also its code
  at the freeze (75.2% labels), then retired into `dev` in the same stop so its misses can be studied.
- blind v29 (stop 53): every case of parts zzzzze, zzzzzf, zzzzzg, zzzzzh and zzzzzi, from threads and committed job
  logs not in parts a-zzzzzd (committed files only from repositories no earlier part used). Its parts were named
  before any of them was imported, so no dev run ever read one. Collected in stops 53 and 54 and frozen at
  2026-12-05T19:49Z with 273 cases (`README-v29.md`); scored with stop 54's starting code, which is also its code
  at the freeze (72.9% labels), then retired into `dev` in the same stop so its misses can be studied.
- blind v30 (stop 54): every case of parts zzzzzj, zzzzzk, zzzzzl, zzzzzm and zzzzzn, from threads and committed job
  logs not in parts a-zzzzzi (committed files only from repositories no earlier part used). Its parts were named
  before any of them was imported, so no dev run ever read one. Collected in stop 54 and frozen at 2026-12-05T20:32Z with
  168 cases (`README-v30.md`); scored once with stop 54's starting code and once with its code at the freeze (79.8% ->
  80.4% labels), then retired into `dev` in the same stop so its misses can be studied.
- blind v31 (stop 54): every case of parts zzzzzo, zzzzzp, zzzzzq, zzzzzr and zzzzzs, from threads and committed job
  logs not in parts a-zzzzzn (committed files only from repositories no earlier part used). Its parts were named
  before any of them was imported, so no dev run ever read one. Collected in stop 55 and frozen at 2026-12-05T21:59Z with
  163 cases (`README-v31.md`); scored once with its code at the freeze, stop 55's starting code (75.5% labels), and
  once with a learned fallback built before any of it was read (77.9%), then retired into `dev` in the same stop so
  its misses can be studied.
- blind v32 (stop 55): every case of parts zzzzzt, zzzzzu, zzzzzv, zzzzzw and zzzzzx, from threads and committed job
  logs not in parts a-zzzzzs (committed files only from repositories no earlier part used). Its parts were named
  before any of them was imported, so no dev run ever read one. Collected in stops 55 and 56 and frozen at
  2026-12-06T00:23Z with 226 cases (`README-v32.md`); scored once with its code at the freeze, stop 56's starting code
  (rules and the learned fallback: 77.9% labels; the rules alone 75.2%), then retired into `dev` in the same stop so
  its misses can be studied.
- blind v33 (stop 56): every case of parts zzzzzy, zzzzzz, zzzzzza, zzzzzzb and zzzzzzc, from threads and committed
  job logs not in parts a-zzzzzx (committed files only from repositories no earlier part used). Its parts were named
  before any of them was imported. Collected in stops 56 and 57 and frozen at 2026-12-06T02:47Z with 174 cases
  (`README-v33.md`); scored once with its code at the freeze, stop 57's starting code (rules and the learned
  fallback: 66.7% labels; the rules alone 68.4%), then retired into `dev` in the same stop so its misses can be
  studied.
- blind v34 (stop 57): every case of parts zzzzzzd, zzzzzze, zzzzzzf, zzzzzzg and zzzzzzh, from threads and committed
  job logs not in parts a-zzzzzzc (committed files only from repositories no earlier part used). Its parts are named
  before any of them was imported. Collected in stops 57 and 58 and frozen at 2026-12-06T05:26Z with 167 cases
  (`README-v34.md`); scored once with its code at the freeze, stop 58's starting code (rules and the learned
  fallback: 66.5% labels; the rules alone 65.9%), then retired into `dev` in the same stop so its misses can be
  studied.
- blind v35 (stop 58): every case of parts zzzzzzi, zzzzzzj, zzzzzzk, zzzzzzl and zzzzzzm, from threads and committed
  job logs not in parts a-zzzzzzh (committed files only from repositories no earlier part used). Its parts are named
  before any of them was imported. Collected in stops 58 and 59 and frozen at 2026-12-06T08:26Z with 150 cases
  (`README-v35.md`); scored once with its code at the freeze, stop 59's starting code (rules and the learned
  fallback: 75.3% labels; the rules alone 74.7%), then retired into `dev` in the same stop so its misses can be
  studied.
- blind v36 (stop 59): every case of parts zzzzzzn, zzzzzzo, zzzzzzp, zzzzzzq and zzzzzzr, from threads and committed
  job logs not in parts a-zzzzzzm (committed files only from repositories no earlier part used). Its parts were named
  before any of them was imported. Collected in stop 60 and frozen at 2026-12-06T10:28Z with 151 cases
  (`README-v36.md`); scored once with its code at the freeze (rules, the learned fallback and its disputed
  confidence: 75.5% labels; the rules alone 76.8%), then retired into `dev` in the same stop so its misses can be
  studied.
- blind v37 (stop 60): every case of parts zzzzzzs, zzzzzzt, zzzzzzu, zzzzzzv and zzzzzzw, from threads and committed
  job logs not in parts a-zzzzzzr (committed files only from repositories no earlier part used). Its parts were named
  before any of them was imported. Collected in stops 60-61 and frozen at 2026-12-06T12:54Z with 150 cases
  (`README-v37.md`); scored once with its code at the freeze (rules, the learned fallback and its disputed
  confidence: 75.3% labels; the rules alone 74.7%), then retired into `dev` in the same stop so its misses can be
  studied.
- blind v38 (stop 61): every case of parts zzzzzzx, zzzzzzy, zzzzzzz, zzzzzzza and zzzzzzzb, from threads and
  committed job logs not in parts a-zzzzzzw (committed files only from repositories no earlier part used). Its parts
  were named before any of them was imported. Collected in stop 62 and frozen at 2026-12-06T15:59Z with 150 cases
  (`README-v38.md`); scored once with its code at the freeze (rules, the learned fallback and its disputed
  confidence: 62.7% labels; the rules alone 62.7%), then retired into `dev` in the same stop so its misses can be
  studied.
- blind v39 (stop 62): every case of parts zzzzzzzc, zzzzzzzd, zzzzzzze, zzzzzzzf and zzzzzzzg, from threads and
  committed job logs not in parts a-zzzzzzzb (committed files only from repositories no earlier part used). Its parts
  were named before any of them was imported. Collected in stop 63 and frozen at 2026-12-06T17:35Z with 151 cases
  (`README-v39.md`); scored once with its code at the freeze (rules, the learned fallback and its disputed
  confidence: 70.2% labels; the rules alone 70.9%), then retired into `dev` in the same stop so its misses can be
  studied.
- blind v40 (stop 63): every case of parts zzzzzzzh, zzzzzzzi, zzzzzzzj, zzzzzzzk and zzzzzzzl, from threads and
  committed job logs not in parts a-zzzzzzzg (committed files only from repositories no earlier part used). Its parts
  were named before any of them was imported. Collected in stops 63 and 64 and frozen at 2026-12-06T19:49Z with 202
  cases (`README-v40.md`); scored once with its code at the freeze (the rules and the learned model's disputed
  confidence, the learned fallback removed: 71.8% labels; the rules alone 71.8%), then retired into `dev` in the same
  stop so its misses can be studied.
- blind v41 (stop 64): every case of parts zzzzzzzm, zzzzzzzn, zzzzzzzo, zzzzzzzp and zzzzzzzq, from threads and
  committed job logs not in parts a-zzzzzzzl (committed files only from repositories no earlier part used). Its parts
  were named before any of them was imported. Collected in stops 64 and 65 and frozen at 2026-12-06T22:18Z with 174
  cases (`README-v41.md`); scored once with its code at the freeze (the rules and the learned model's disputed
  confidence: 79.3% labels; the rules alone 79.3%), then retired into `dev` in the same stop so its misses can be
  studied.
- blind v42 (stop 65): every case of parts zzzzzzzr, zzzzzzzs, zzzzzzzt, zzzzzzzu and zzzzzzzv, from threads and
  committed job logs not in parts a-zzzzzzzq (committed files only from repositories no earlier part used). Its parts
  were named before any of them was imported. Collected in stops 65 and 66 and frozen at 2026-12-07T00:42Z with 199
  cases (`README-v42.md`); scored once with its code at the freeze (the rules and the learned model's disputed
  confidence: 75.4% labels; the rules alone 75.4%), then retired into `dev` in the same stop so its misses can be
  studied.
- blind v43 (stop 66): every case of parts zzzzzzzw, zzzzzzzx, zzzzzzzy, zzzzzzzz and zzzzzzzza, from threads and
  committed job logs not in parts a-zzzzzzzv (committed files only from repositories no earlier part used). Its parts
  are named here before any of them is imported, so no dev run ever reads one (`README-v43.md`).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Literal

HERE = Path(__file__).resolve().parent
Split = Literal["blind", "dev"]


BLIND_PARTS: tuple[str, ...] = (
    "zzzzzzzw-",
    "zzzzzzzx-",
    "zzzzzzzy-",
    "zzzzzzzz-",
    "zzzzzzzza-",
)  # blind v43, named first
# When the blind split was frozen (UTC), or None while it is still being collected: the benchmark refuses to score an
# open split (v43 was named in stop 66, README-v43.md)
BLIND_FROZEN: str | None = None
BLIND_V42_PARTS = ("zzzzzzzr-", "zzzzzzzs-", "zzzzzzzt-", "zzzzzzzu-", "zzzzzzzv-")
BLIND_V41_PARTS = ("zzzzzzzm-", "zzzzzzzn-", "zzzzzzzo-", "zzzzzzzp-", "zzzzzzzq-")
BLIND_V40_PARTS = ("zzzzzzzh-", "zzzzzzzi-", "zzzzzzzj-", "zzzzzzzk-", "zzzzzzzl-")
BLIND_V39_PARTS = ("zzzzzzzc-", "zzzzzzzd-", "zzzzzzze-", "zzzzzzzf-", "zzzzzzzg-")
BLIND_V38_PARTS = ("zzzzzzx-", "zzzzzzy-", "zzzzzzz-", "zzzzzzza-", "zzzzzzzb-")
BLIND_V37_PARTS = ("zzzzzzs-", "zzzzzzt-", "zzzzzzu-", "zzzzzzv-", "zzzzzzw-")
BLIND_V36_PARTS = ("zzzzzzn-", "zzzzzzo-", "zzzzzzp-", "zzzzzzq-", "zzzzzzr-")
BLIND_V35_PARTS = ("zzzzzzi-", "zzzzzzj-", "zzzzzzk-", "zzzzzzl-", "zzzzzzm-")
BLIND_V34_PARTS = ("zzzzzzd-", "zzzzzze-", "zzzzzzf-", "zzzzzzg-", "zzzzzzh-")
BLIND_V33_PARTS = ("zzzzzy-", "zzzzzz-", "zzzzzza-", "zzzzzzb-", "zzzzzzc-")
BLIND_V32_PARTS = ("zzzzzt-", "zzzzzu-", "zzzzzv-", "zzzzzw-", "zzzzzx-")
BLIND_V31_PARTS = ("zzzzzo-", "zzzzzp-", "zzzzzq-", "zzzzzr-", "zzzzzs-")
BLIND_V30_PARTS = ("zzzzzj-", "zzzzzk-", "zzzzzl-", "zzzzzm-", "zzzzzn-")
BLIND_V29_PARTS = ("zzzzze-", "zzzzzf-", "zzzzzg-", "zzzzzh-", "zzzzzi-")
BLIND_V28_PARTS = ("zzzzz-", "zzzzza-", "zzzzzb-", "zzzzzc-", "zzzzzd-")
BLIND_V27_PARTS = ("zzzzu-", "zzzzv-", "zzzzw-", "zzzzx-", "zzzzy-")
BLIND_V26_PARTS = ("zzzzp-", "zzzzq-", "zzzzr-", "zzzzs-", "zzzzt-")
BLIND_V25_PARTS = ("zzzzk-", "zzzzl-", "zzzzm-", "zzzzn-", "zzzzo-")
BLIND_V24_PARTS = ("zzzzf-", "zzzzg-", "zzzzh-", "zzzzi-", "zzzzj-")
BLIND_V23_PARTS = ("zzzza-", "zzzzb-", "zzzzc-", "zzzzd-", "zzzze-")
BLIND_V22_PARTS = ("zzzv-", "zzzw-", "zzzx-", "zzzy-", "zzzz-")
BLIND_V21_PARTS = ("zzzq-", "zzzr-", "zzzs-", "zzzt-", "zzzu-")
BLIND_V20_PARTS = ("zzzl-", "zzzm-", "zzzn-", "zzzo-", "zzzp-")
BLIND_V19_PARTS = ("zzzg-", "zzzh-", "zzzi-", "zzzj-", "zzzk-")
BLIND_V18_PARTS = ("zzzb-", "zzzc-", "zzzd-", "zzze-", "zzzf-")
BLIND_V17_PARTS = ("zzw-", "zzx-", "zzy-", "zzz-", "zzza-")
BLIND_V16_PARTS = ("zzr-", "zzs-", "zzt-", "zzu-", "zzv-")
BLIND_V15_PARTS = ("zzm-", "zzn-", "zzo-", "zzp-", "zzq-")
BLIND_V14_PARTS = ("zzh-", "zzi-", "zzj-", "zzk-", "zzl-")
BLIND_V13_PARTS = ("zzc-", "zzd-", "zze-", "zzf-", "zzg-")
BLIND_V12_PARTS = ("zx-", "zy-", "zz-", "zza-", "zzb-")
BLIND_V11_PARTS = ("zs-", "zt-", "zu-", "zv-", "zw-")
BLIND_V10_PARTS = ("zn-", "zo-", "zp-", "zq-", "zr-")
BLIND_V9_PARTS = ("zi-", "zj-", "zk-", "zl-", "zm-")
BLIND_V8_PARTS = ("zc-", "zd-", "ze-", "zf-", "zg-", "zh-")
BLIND_V7_PARTS = ("x-", "y-", "z-", "za-", "zb-")
BLIND_V6_PARTS = ("t-", "u-", "v-", "w-")
BLIND_V5_PARTS = ("o-", "p-", "q-", "r-", "s-")
BLIND_V4_PARTS = ("l-", "m-", "n-")
BLIND_V3_PARTS = ("i-", "j-", "k-")
BLIND_V2_PARTS = ("c-", "d-", "e-")


def split_v1_of(case_id: str) -> Split:
    """The stop-19 rule: `blind` for about 40% of ids (sha256 of the id, mod 100, below 40), else `dev`."""
    return "blind" if int(hashlib.sha256(case_id.encode()).hexdigest(), 16) % 100 < 40 else "dev"


def split_v2_of(case_id: str) -> Split:
    """The stop-20 rule: parts c, d and e were the blind split (v2), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V2_PARTS) else "dev"


def split_v3_of(case_id: str) -> Split:
    """The first stop-21 rule: parts i, j and k were the blind split (v3), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V3_PARTS) else "dev"


def split_v4_of(case_id: str) -> Split:
    """The second stop-21 rule: parts l, m and n were the blind split (v4), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V4_PARTS) else "dev"


def split_v5_of(case_id: str) -> Split:
    """The stop-22 rule: parts o, p, q, r and s were the blind split (v5), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V5_PARTS) else "dev"


def split_v6_of(case_id: str) -> Split:
    """The stop-23 rule: parts t, u, v and w were the blind split (v6), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V6_PARTS) else "dev"


def split_v7_of(case_id: str) -> Split:
    """The stop-24 rule: parts x, y, z, za and zb were the blind split (v7), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V7_PARTS) else "dev"


def split_v8_of(case_id: str) -> Split:
    """The stop-25 rule: parts zc, zd, ze, zf, zg and zh were the blind split (v8), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V8_PARTS) else "dev"


def split_v9_of(case_id: str) -> Split:
    """The stop-26 rule: parts zi, zj, zk, zl and zm were the blind split (v9), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V9_PARTS) else "dev"


def split_v10_of(case_id: str) -> Split:
    """The stop-27 rule: parts zn, zo, zp, zq and zr were the blind split (v10), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V10_PARTS) else "dev"


def split_v11_of(case_id: str) -> Split:
    """The stop-28 rule: parts zs, zt, zu, zv and zw were the blind split (v11), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V11_PARTS) else "dev"


def split_v12_of(case_id: str) -> Split:
    """The stop-29 rule: parts zx, zy, zz, zza and zzb were the blind split (v12), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V12_PARTS) else "dev"


def split_v13_of(case_id: str) -> Split:
    """The stop-30 rule: parts zzc, zzd, zze, zzf and zzg were the blind split (v13), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V13_PARTS) else "dev"


def split_v14_of(case_id: str) -> Split:
    """The stop-31 rule: parts zzh, zzi, zzj, zzk and zzl were the blind split (v14), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V14_PARTS) else "dev"


def split_v15_of(case_id: str) -> Split:
    """The stop-32 rule: parts zzm, zzn, zzo, zzp and zzq were the blind split (v15), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V15_PARTS) else "dev"


def split_v16_of(case_id: str) -> Split:
    """The stop-33 rule: parts zzr, zzs, zzt, zzu and zzv were the blind split (v16), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V16_PARTS) else "dev"


def split_v17_of(case_id: str) -> Split:
    """The stop-34 rule: parts zzw, zzx, zzy, zzz and zzza were the blind split (v17), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V17_PARTS) else "dev"


def split_v18_of(case_id: str) -> Split:
    """The stop-35 rule: parts zzzb, zzzc, zzzd, zzze and zzzf were the blind split (v18), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V18_PARTS) else "dev"


def split_v19_of(case_id: str) -> Split:
    """The stop-38 rule: parts zzzg, zzzh, zzzi, zzzj and zzzk were the blind split (v19), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V19_PARTS) else "dev"


def split_v20_of(case_id: str) -> Split:
    """The stop-42 rule: parts zzzl, zzzm, zzzn, zzzo and zzzp were the blind split (v20), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V20_PARTS) else "dev"


def split_v21_of(case_id: str) -> Split:
    """The stop-43 rule: parts zzzq, zzzr, zzzs, zzzt and zzzu were the blind split (v21), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V21_PARTS) else "dev"


def split_v42_of(case_id: str) -> Split:
    """The stop-66 rule: parts zzzzzzzr, zzzzzzzs, zzzzzzzt, zzzzzzzu and zzzzzzzv were the blind split (v42), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V42_PARTS) else "dev"


def split_v41_of(case_id: str) -> Split:
    """The stop-65 rule: parts zzzzzzzm, zzzzzzzn, zzzzzzzo, zzzzzzzp and zzzzzzzq were the blind split (v41), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V41_PARTS) else "dev"


def split_v40_of(case_id: str) -> Split:
    """The stop-64 rule: parts zzzzzzzh, zzzzzzzi, zzzzzzzj, zzzzzzzk and zzzzzzzl were the blind split (v40), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V40_PARTS) else "dev"


def split_v39_of(case_id: str) -> Split:
    """The stop-63 rule: parts zzzzzzzc, zzzzzzzd, zzzzzzze, zzzzzzzf and zzzzzzzg were the blind split (v39), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V39_PARTS) else "dev"


def split_v38_of(case_id: str) -> Split:
    """The stop-62 rule: parts zzzzzzx, zzzzzzy, zzzzzzz, zzzzzzza and zzzzzzzb were the blind split (v38), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V38_PARTS) else "dev"


def split_v37_of(case_id: str) -> Split:
    """The stop-61 rule: parts zzzzzzs, zzzzzzt, zzzzzzu, zzzzzzv and zzzzzzw were the blind split (v37), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V37_PARTS) else "dev"


def split_v36_of(case_id: str) -> Split:
    """The stop-60 rule: parts zzzzzzn, zzzzzzo, zzzzzzp, zzzzzzq and zzzzzzr were the blind split (v36), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V36_PARTS) else "dev"


def split_v35_of(case_id: str) -> Split:
    """The stop-59 rule: parts zzzzzzi, zzzzzzj, zzzzzzk, zzzzzzl and zzzzzzm were the blind split (v35), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V35_PARTS) else "dev"


def split_v34_of(case_id: str) -> Split:
    """The stop-58 rule: parts zzzzzzd, zzzzzze, zzzzzzf, zzzzzzg and zzzzzzh were the blind split (v34), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V34_PARTS) else "dev"


def split_v33_of(case_id: str) -> Split:
    """The stop-57 rule: parts zzzzzy, zzzzzz, zzzzzza, zzzzzzb and zzzzzzc were the blind split (v33), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V33_PARTS) else "dev"


def split_v32_of(case_id: str) -> Split:
    """The stop-56 rule: parts zzzzzt, zzzzzu, zzzzzv, zzzzzw and zzzzzx were the blind split (v32), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V32_PARTS) else "dev"


def split_v31_of(case_id: str) -> Split:
    """The stop-55 rule: parts zzzzzo, zzzzzp, zzzzzq, zzzzzr and zzzzzs were the blind split (v31), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V31_PARTS) else "dev"


def split_v30_of(case_id: str) -> Split:
    """The stop-54 rule: parts zzzzzj, zzzzzk, zzzzzl, zzzzzm and zzzzzn were the blind split (v30), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V30_PARTS) else "dev"


def split_v29_of(case_id: str) -> Split:
    """The stop-54 rule: parts zzzzze, zzzzzf, zzzzzg, zzzzzh and zzzzzi were the blind split (v29), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V29_PARTS) else "dev"


def split_v28_of(case_id: str) -> Split:
    """The stop-53 rule: parts zzzzz, zzzzza, zzzzzb, zzzzzc and zzzzzd were the blind split (v28), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V28_PARTS) else "dev"


def split_v27_of(case_id: str) -> Split:
    """The stop-50 rule: parts zzzzu, zzzzv, zzzzw, zzzzx and zzzzy were the blind split (v27), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V27_PARTS) else "dev"


def split_v26_of(case_id: str) -> Split:
    """The stop-48 rule: parts zzzzp, zzzzq, zzzzr, zzzzs and zzzzt were the blind split (v26), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V26_PARTS) else "dev"


def split_v25_of(case_id: str) -> Split:
    """The stop-47 rule: parts zzzzk, zzzzl, zzzzm, zzzzn and zzzzo were the blind split (v25), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V25_PARTS) else "dev"


def split_v24_of(case_id: str) -> Split:
    """The stop-46 rule: parts zzzzf, zzzzg, zzzzh, zzzzi and zzzzj were the blind split (v24), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V24_PARTS) else "dev"


def split_v23_of(case_id: str) -> Split:
    """The stop-45 rule: parts zzzza, zzzzb, zzzzc, zzzzd and zzzze were the blind split (v23), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V23_PARTS) else "dev"


def split_v22_of(case_id: str) -> Split:
    """The stop-44 rule: parts zzzv, zzzw, zzzx, zzzy and zzzz were the blind split (v22), every other part `dev`."""
    return "blind" if case_id.startswith(BLIND_V22_PARTS) else "dev"


def split_of(case_id: str) -> Split:
    """The current rule: the parts in `BLIND_PARTS` are the blind split (v43); every other part is `dev`."""
    return "blind" if case_id.startswith(BLIND_PARTS) else "dev"


def load(split: Split | None = None, root: Path = HERE) -> list[dict[str, Any]]:
    """Every case from every `part-*.jsonl`, with its log text under `log`, optionally one split only."""
    cases: list[dict[str, Any]] = []
    for part in sorted(root.glob("part-*.jsonl")):
        for line in part.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            case = json.loads(line)
            if split is not None and split_of(case["id"]) != split:
                continue
            case["split"] = split_of(case["id"])
            case["log"] = (root / "logs" / f"{case['id']}.log").read_text(encoding="utf-8")
            cases.append(case)
    return cases
