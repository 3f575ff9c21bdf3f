"""Build step the pyproject.toml cannot say: ship the firmware tree and the hardware files the verbs
read inside the bgc package, so an installed bgc has them where bgc.resource() looks."""
import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

# Checkout folder -> what the wheel carries of it, under bgc/ (the same names: bgc.resource).
SHIPPED = {"firmware": None, "hardware": ["geometry.json"]}


class BuildWithProduct(build_py):
    """firmware/ whole (bgc deploy picks its files from it as from a checkout's) and
    hardware/geometry.json, copied to bgc/firmware and bgc/hardware in the build. An editable
    install copies nothing: bgc uses the checkout's own files in place."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        for folder, names in SHIPPED.items():
            target = os.path.join(self.build_lib, "bgc", folder)
            shutil.rmtree(target, ignore_errors=True)
            if names is None:
                shutil.copytree(folder, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".*"))
            else:
                os.makedirs(target)
                for name in names:
                    shutil.copy2(os.path.join(folder, name), target)


setup(cmdclass={"build_py": BuildWithProduct})
