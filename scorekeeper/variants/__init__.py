"""The variants: one folder each (rules.py, pure; view.py, its pages' words and forms); the shared view machinery beside them."""
