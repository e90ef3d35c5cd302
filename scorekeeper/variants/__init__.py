"""The built-in variants: one package each (rules.py, pure; view.py, its pages' words and forms), registered by its
entry point in pyproject.toml as an installed plug-in's is (core/registry.py); the shared view machinery beside them."""
