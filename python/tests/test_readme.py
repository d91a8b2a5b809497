"""python/README.md's notebook: its ```python blocks run in order in one namespace, in a
temporary directory (the histogram writes a file)."""

import os
import re

from conftest import REPO


def test_readme_notebook_runs(tmp_path, capsys):
    text = (REPO / "python" / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert len(blocks) >= 5
    namespace = {}
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        for i, block in enumerate(blocks):
            exec(compile(block, f"README.md block {i + 1}", "exec"), namespace)
    finally:
        os.chdir(cwd)
    out = capsys.readouterr().out
    assert "partner averages" in out and "3NT makes on" in out
    # What the notebook computed holds: 24 solved deals, North's NT tricks 0..13.
    assert namespace["table"].sum() == 24
    assert namespace["tricks"].shape == (24, 4, 5)
    # The histogram was drawn (matplotlib is in the test venv, python/requirements-test.txt):
    # a PNG file.
    assert namespace["plt"] is not None, "matplotlib missing"
    assert (tmp_path / "south-hcp.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # The lead problem and the contract choice: 13 leads over 40 deals, two contracts over 30.
    assert "rather than HK" in out and "4H:S against 3NT:S" in out
    assert namespace["leads"]["deals"] == 40 and namespace["choice"]["deals"] == 30
    assert (tmp_path / "leads.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
