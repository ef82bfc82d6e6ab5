"""The README's Python example runs and prints what its comment says."""

from __future__ import annotations

import contextlib
import io
import re

from conftest import ROOT


def test_the_readme_sweep_prints_what_it_says():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Python and notebooks", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert "pip install ./python" in section
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    lines = out.getvalue().splitlines()
    assert len(lines) == 55  # b from 3 to 12, a from 2 to b - 1
    promised = re.search(r"# (\{1, 2, 3\}: period \d+ from \d+) \.\.\. (.*)", code)
    assert (lines[0], lines[-1]) == promised.groups()
