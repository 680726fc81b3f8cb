#!/bin/sh
#SBATCH --job-name=train-7.worker
#SBATCH --comment=runshepherd;wf=train-7;task=worker;key=sess-1%2Fattempt%202
#SBATCH --partition=debug
#SBATCH "--output=/scratch/my runs/it's #1/50%%/slurm.out"
#SBATCH "--chdir=/scratch/my runs/it's #1/50%/work"
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=2
#SBATCH --mem=3072M
#SBATCH --gres=gpu:2
#SBATCH --nice=1000
#SBATCH --dependency=afterok:41:42
#SBATCH --kill-on-invalid-dep=yes
#SBATCH --hold
#SBATCH --time=61
# written by RunShepherd's Slurm backend: run the prepared task and record how it ended
export PYTHONPATH=/opt/runshepherd${PYTHONPATH:+:$PYTHONPATH}
exec '/opt/my venv/python' -m runshepherd.backends.slurm.runner '/scratch/my runs/it'"'"'s #1/50%' worker
