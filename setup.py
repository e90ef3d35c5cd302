"""What the wheel carries beyond the package's own files: the top-level templates/ folder (as scorekeeper/templates,
where create_app looks first) and the catalogues compiled, the shared ones and each built-in variant's
(scorekeeper/variants/<name>/translations/): `make` compiles them for a checkout, but the *.mo files are not in git,
so a wheel or an sdist-built wheel from a clean clone would otherwise speak English only. Everything else (a variant's
own templates/ and static/ too) is in pyproject.toml; MANIFEST.in puts templates/ and the catalogues in the sdist."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithCatalogues(build_py):
    """build_py, then templates/ copied into the build's package, and each translations/<lang>/LC_MESSAGES/messages.po
    (the shared catalogues and every variant's) compiled beside it."""

    def run(self):
        super().run()
        target = Path(self.build_lib, "scorekeeper", "templates")
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(Path(__file__).resolve().parent / "templates", target)
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        package = Path(self.build_lib, "scorekeeper")
        catalogues = [*package.glob("translations/*/LC_MESSAGES/*.po")]
        catalogues += package.glob("variants/*/translations/*/LC_MESSAGES/*.po")
        for po in sorted(catalogues):
            with po.open("rb") as source:
                catalog = read_po(source, locale=po.parent.parent.name)
            with po.with_suffix(".mo").open("wb") as target:
                write_mo(target, catalog)  # fuzzy entries left out, as `pybabel compile` does


setup(cmdclass={"build_py": BuildWithCatalogues})
