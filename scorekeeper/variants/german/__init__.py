"""German whist: rules.py (pure) and view.py (its pages)."""
