"""Notifications: tell a person when a run changes state or needs them (webhook, e-mail, desktop, file)."""

from runshepherd.notify.channels import Channel, channel_for, parse_targets
from runshepherd.notify.dispatch import Notifier
from runshepherd.notify.payload import Notification, fingerprint_of

__all__ = ["Channel", "Notification", "Notifier", "channel_for", "fingerprint_of", "parse_targets"]
