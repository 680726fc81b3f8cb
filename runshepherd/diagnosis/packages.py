"""Facts about Python packages that the diagnosis reads: the pip name of an import name where they differ, and the
import names of widely used distributions.

Why a list of well-known names: "No module named 'X'" is a missing package when X is a distribution one installs, and
as often the project's own file (a script run from the wrong directory, a typo, a module never committed) when X is a
name no distribution is known by. The verdict is the same; how sure it is differs (measured on the dev corpus: about
nine in ten right for a well-known name, eight in ten for any other).
"""

from __future__ import annotations

import re

# import name → pip package, where they differ
PIP_NAMES: dict[str, str] = {
    "cv2": "opencv-python-headless",
    "sklearn": "scikit-learn",
    "PIL": "pillow",
    "yaml": "pyyaml",
    "skimage": "scikit-image",
    "bs4": "beautifulsoup4",
    "attr": "attrs",
    "dateutil": "python-dateutil",
    "dotenv": "python-dotenv",
    "google.protobuf": "protobuf",
    "google": "protobuf",
    "Crypto": "pycryptodome",
    "jwt": "pyjwt",
    "serial": "pyserial",
    "usb": "pyusb",
    "OpenGL": "pyopengl",
    "fitz": "pymupdf",
    "magic": "python-magic",
    "sentencepiece": "sentencepiece",
    "tensorboardX": "tensorboardX",
    "lightning": "lightning",
    "pytorch_lightning": "pytorch-lightning",
    "apex": "apex",
    "flash_attn": "flash-attn",
    "mpi4py": "mpi4py",
    "hydra": "hydra-core",
    "omegaconf": "omegaconf",
    "wandb": "wandb",
    "Levenshtein": "python-Levenshtein",
    "docx": "python-docx",
    "pptx": "python-pptx",
    "git": "gitpython",
    "zmq": "pyzmq",
    "ruamel": "ruamel.yaml",
    "tf": "tensorflow",
    "faiss": "faiss-cpu",
    "llama_cpp": "llama-cpp-python",
    "mmcv": "mmcv",
    "umap": "umap-learn",
}

# top-level import names of widely used distributions (ML frameworks and their ecosystems, the scientific stack,
# common utilities); the import names of PIP_NAMES are in it too
WELL_KNOWN_IMPORTS: frozenset[str] = frozenset(PIP_NAMES) | frozenset(
    """
    absl accelerate aiohttp albumentations ale_py annoy atari_py attrs auto_gptq av awq azure bert_score
    bitsandbytes boto3 botocore Box2D catboost causal_conv1d chex clearml click clip cloudpickle comet_ml cupy
    Cython cython datasets deepspeed detectron2 dgl diffusers dill distutils dm_control dm_haiku docker einops
    emoji equinox espnet evaluate fairscale fairseq ffmpeg fire flax fsspec ftfy gcsfs gensim gin GPUtil grpc gym
    gymnasium h5py habitat habitat_sim haiku hnswlib horovod httpx huggingface_hub hydra_zen ijson imageio imblearn
    importlib_metadata ipdb IPython isaacgym isaaclab jax jax_md jaxlib jieba joblib json5 jsonargparse jsonlines
    jupyter keras kornia kubernetes librosa lightgbm lightning_fabric lime lvis lxml mamba_ssm matplotlib megatron
    ml_collections mlflow mmdet mmengine mmocr mmpose mmseg msgpack mujoco natsort nemo neptune networkx nltk
    notebook numba numpy nvidia_smi ogb onnx onnxconverter_common onnxruntime open3d open_clip openpyxl optax
    optimum optuna orbax packaging pandas peft pkg_resources plotly polars protobuf psutil pyannote pyarrow
    pybullet pycocoevalcap pycocotools pycuda pydub pynvml pytest pytorch3d ray rdkit regex requests rich
    rouge_score s3fs sacrebleu safetensors sagemaker scipy seaborn sentence_transformers setuptools shap six
    sklearn_crfsuite soundfile sox spacy speechbrain stable_baselines3 statsmodels submitit tables tensorboard
    tensorflow tensorflow_addons tensorflow_datasets tensorflow_gan tensorflow_hub tensorflow_probability
    tensorflow_text tensorrt tf_keras tiktoken timm tokenizers toml tomli torch torch_ac torch_cluster
    torch_geometric torch_scatter torch_sparse torch_spline_conv torchaudio torchcodec torchdata torchmetrics
    torchrec torchtext torchvision tqdm transformers trimesh triton trl typer typing_extensions tyro ultralytics
    unidecode urllib3 vllm whisper xformers xgboost xlrd yolov5 monai gradio streamlit openai fastai paddle paddlenlp
    mxnet chainer theano caffe lasagne allennlp pydantic fastapi uvicorn flask sqlalchemy psycopg2 redis nvidia
    """.split()
)


def well_known_pattern() -> str:
    """A regex alternation of :data:`WELL_KNOWN_IMPORTS` with dots (``google.protobuf``) escaped, longest first (in a fixed order: the gate table is keyed by the pattern)."""
    return "|".join(re.escape(n) for n in sorted(WELL_KNOWN_IMPORTS, key=lambda n: (-len(n), n)))
