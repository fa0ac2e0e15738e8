"""The package ships ``py.typed``: its annotations, its ``_core.pyi`` stub and a user's typed
script must all pass mypy (configured in pyproject.toml), and the stub must match the compiled
module (mypy's stubtest)."""

import os
import runpy
import subprocess
import sys

import pytest

mypy_api = pytest.importorskip("mypy.api", reason="mypy comes with the test extra: pip install '.[test]'")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONFIG = os.path.join(ROOT, "pyproject.toml")
USER_SCRIPT = os.path.join(ROOT, "tests", "typing", "user_script.py")
ALLOWLIST = os.path.join(ROOT, "tests", "typing", "stubtest_allowlist.txt")


def _mypy(tmp_path, *paths):
    # (run from the checkout, so that mypy_path and files in the config resolve)
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        out, err, status = mypy_api.run(["--config-file", CONFIG, "--cache-dir", str(tmp_path / "cache"),
                                         "--no-error-summary", *paths])
    finally:
        os.chdir(cwd)
    return status, out + err


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return tmp_path_factory.mktemp("mypy")


def test_the_package_and_its_stub_pass_mypy(cache):
    status, report = _mypy(cache)
    assert status == 0, report


def test_a_typed_user_script_passes_mypy_and_runs(cache):
    status, report = _mypy(cache, USER_SCRIPT)
    assert status == 0, report
    runpy.run_path(USER_SCRIPT, run_name="__main__")


def test_mypy_reports_a_wrong_annotation_against_the_package(cache, tmp_path):
    # The check has teeth: solve_solo(count=2) may return a list, a Game method is typed, and
    # arguments are typed (a float is no colour, no cell and no piece: not Any).
    wrong = tmp_path / "wrong.py"
    wrong.write_text("import trigon_fast as tf\n"
                     "one: tf.Solution = tf.solve_solo(count=2)\n"
                     "text: int = tf.Game(tf.Variant.SOLO).to_blksgf()\n"
                     "tf.can_place_all(tf.Game(), colours=1.5)\n"
                     "tf.solve_pattern([1.5], pieces=[2.5])\n")
    status, report = _mypy(cache, str(wrong))
    assert status == 1
    assert all(f"wrong.py:{n}: error" in report for n in (2, 3, 4, 5)), report


def test_the_stub_matches_the_compiled_module():
    # A fresh process: stubtest imports the runtime module and builds the stub from scratch.
    p = subprocess.run([sys.executable, "-m", "mypy.stubtest", "--concise", "--allowlist", ALLOWLIST,
                        "trigon_fast._core"], capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
