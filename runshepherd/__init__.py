"""RunShepherd: from a sentence to a finished ML job, with honest status and trusted fixes."""

__version__ = "0.1.0"
