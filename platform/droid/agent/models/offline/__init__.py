"""The offline stand-in model: a documented keyword heuristic (see model.py), not a language model."""

from droid.agent.models.offline.model import OfflineModel

__all__ = ["OfflineModel"]
