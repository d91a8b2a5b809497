"""Shared fixtures: the repository, the `dealdex` binary the same tree built, the published
vectors."""

import json
import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


def cli_path() -> pathlib.Path:
    """The dealdex binary: $DEALDEX_BIN, else target/ci/dealdex (what .ci/run builds)."""
    given = os.environ.get("DEALDEX_BIN")
    path = pathlib.Path(given) if given else REPO / "target" / "ci" / "dealdex"
    if not path.exists():
        pytest.fail(f"{path} is missing: build it with `cargo build --profile ci` or set DEALDEX_BIN")
    return path


@pytest.fixture(scope="session")
def cli():
    """Runs the dealdex binary with the given arguments and returns its stdout."""
    binary = cli_path()

    def run(*args: str, cwd=None) -> str:
        out = subprocess.run(
            [str(binary), *args], capture_output=True, text=True, cwd=cwd, check=False
        )
        assert out.returncode == 0, f"dealdex {' '.join(args)} failed: {out.stderr}"
        return out.stdout

    return run


@pytest.fixture(scope="session")
def vectors():
    """The published vectors (FORMATS.md; Pavlicek, Andrews, Duplimate, DLM and LIN samples)."""
    return json.loads((REPO / "tests" / "fixtures" / "vectors.json").read_text())


@pytest.fixture(scope="session")
def dd_reference():
    """DDS's own tables and par for 200 boards (tests/fixtures/dd, through endplay)."""
    path = REPO / "tests" / "fixtures" / "dd" / "dd-reference.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
