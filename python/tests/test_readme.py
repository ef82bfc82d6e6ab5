"""The Python examples of the README and of the manual run and print what their comments say."""

from __future__ import annotations

import contextlib
import io
import re

from conftest import ROOT


def run(code: str, name: str) -> list:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, name, "exec"), {})
    return out.getvalue().splitlines()


def test_the_manual_sweep_prints_what_it_says():
    chapter = (ROOT / "docs" / "src" / "python.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", chapter, re.S).group(1)
    assert "pip install ./python" in chapter
    lines = run(code, "docs/src/python.md")
    assert len(lines) == 55  # b from 3 to 12, a from 2 to b - 1
    promised = re.search(r"# (\{1, 2, 3\}: period \d+ from \d+) \.\.\. (.*)", code)
    assert (lines[0], lines[-1]) == promised.groups()


def test_the_readme_example_prints_what_it_says():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", readme, re.S).group(1)
    promised = [line.split("# ", 1)[1] for line in code.splitlines() if line.startswith("print(")]
    assert promised, "the README's example prints something"
    assert run(code, "README.md") == promised
