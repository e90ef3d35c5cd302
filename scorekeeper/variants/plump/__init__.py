"""Plump: rules.py (pure) and view.py (its pages)."""
