"""The catalogues compiled into the build (translations/<lang>/LC_MESSAGES/messages.po → .mo), as the app's own
setup.py does: the .mo files are not kept in git. Everything else is in pyproject.toml."""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithCatalogues(build_py):
    def run(self):
        super().run()
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for po in Path(self.build_lib, "scorekeeper_israeli", "translations").glob("*/LC_MESSAGES/*.po"):
            with po.open("rb") as source:
                catalog = read_po(source, locale=po.parent.parent.name)
            with po.with_suffix(".mo").open("wb") as target:
                write_mo(target, catalog)


setup(cmdclass={"build_py": BuildWithCatalogues})
