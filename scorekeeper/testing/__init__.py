"""What the app ships for the tests of its variants, the built-in ones and an installed plug-in's alike: kit.py, the
conformance kit every variant runs (as pytest and Datasette ship tests for their plug-ins)."""
