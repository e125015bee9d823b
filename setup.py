"""Packages: the code under battlefield/, plus the data folders kept at the top of the repo."""

from setuptools import find_packages, setup

DATA_PACKAGES = ["battlefield.maps", "battlefield.rulesets", "battlefield.assets"]

setup(packages=find_packages(include=["battlefield", "battlefield.*"]) + DATA_PACKAGES)
