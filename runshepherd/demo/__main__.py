"""``python -m runshepherd.demo`` runs the trainer (same as ``python -m runshepherd.demo.trainer``)."""

import sys

from runshepherd.demo.trainer import main

sys.exit(main())
