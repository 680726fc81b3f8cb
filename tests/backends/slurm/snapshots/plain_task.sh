#!/bin/sh
#SBATCH --job-name=train-7.worker
#SBATCH --comment=runshepherd;wf=train-7;task=worker
#SBATCH --partition=debug
#SBATCH --output=/scratch/slurm/workflows/train-7/tasks/worker/slurm.out
#SBATCH --chdir=/scratch/slurm/workflows/train-7/tasks/worker/work
#SBATCH --ntasks=1
# written by RunShepherd's Slurm backend: run the prepared task and record how it ended
export PYTHONPATH=/opt/runshepherd${PYTHONPATH:+:$PYTHONPATH}
exec /opt/venv/bin/python -m runshepherd.backends.slurm.runner /scratch/slurm/workflows/train-7 worker
