"""Israeli whist for scorekeeper, as an installed plug-in: a package registered under the entry-point group
`scorekeeper.variants` (../pyproject.toml), holding its rules (rules.py, pure), its pages (view.py, templates/,
static/), its words (translations/: da, nb, sv), its example data for the conformance kit (examples.py) and its rules
in words (rules.md). Nothing here imports Flask: the app reads rules.py without it."""
