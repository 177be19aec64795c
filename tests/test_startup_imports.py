"""What ``import verifier`` and a plain first verify load (issue 21), in a fresh
interpreter: not asyncio, the judge's HTTP client or the service, and not the CLDR data
of the locales the currency symbol table was built from (it ships as package data)."""

import json
import os
import subprocess
import sys

from verifier.normalizers import currency_data

import verifier

_LOADED = """
import json, sys
import verifier
after_import = sorted(sys.modules)
if sys.argv[1] == "verify":
    from importlib import resources
    ex = resources.files("verifier").joinpath("examples")
    verifier.verify(ex.joinpath("screen_answer.txt").read_text(),
                    json.loads(ex.joinpath("screen_tools.json").read_text()), judge=False)
import babel.localedata
print(json.dumps({"import": after_import, "end": sorted(sys.modules),
                  "locales": sorted(babel.localedata._cache)}))
"""

#: Modules the plain verify path never needs.
_NOT_LOADED = ("asyncio", "httpx", "verifier.aio", "verifier.judge.client", "verifier.api",
               "verifier.api.service", "babel.units", "stdnum", "ssl")


def _fresh(step: str) -> dict[str, list[str]]:
    # no judge configured: VERIFIER_JUDGE_URL would make verify() build the HTTP client
    env = {k: v for k, v in os.environ.items() if not k.startswith("VERIFIER_JUDGE_")}
    done = subprocess.run([sys.executable, "-c", _LOADED, step], capture_output=True, text=True,
                          timeout=120, check=True, env=env)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_import_verifier_loads_no_asyncio_judge_client_or_service():
    loaded = _fresh("import")
    for name in _NOT_LOADED:
        assert name not in loaded["import"], name
    assert not [m for m in loaded["import"] if m.startswith(("asyncio.", "verifier.api."))]


def test_a_first_verify_in_en_us_reads_only_the_english_locale_data():
    loaded = _fresh("verify")
    for name in ("asyncio", "httpx", "verifier.aio", "verifier.judge.client", "verifier.api"):
        assert name not in loaded["end"], name
    # the symbol table's 18 locales are not loaded: their symbols ship precomputed
    assert set(loaded["locales"]) <= {"root", "en", "en_US", "en_001"}, loaded["locales"]
    assert set(loaded["locales"]).isdisjoint(set(currency_data.SYMBOL_LOCALES) - {"en_US"})


def test_the_lazy_public_names_are_the_real_objects():
    from verifier.aio import averify, averify_messages
    from verifier.judge.client import OpenAIJudge

    assert verifier.averify is averify and verifier.averify_messages is averify_messages
    assert verifier.OpenAIJudge is OpenAIJudge
    from verifier import OpenAIJudge as again
    from verifier.judge import OpenAIJudge as from_judge

    assert again is OpenAIJudge and from_judge is OpenAIJudge
    assert {"averify", "averify_messages", "OpenAIJudge"} <= set(dir(verifier))


def test_an_unknown_name_is_still_an_attribute_error():
    import pytest

    import verifier.judge

    for module in (verifier, verifier.judge):
        with pytest.raises(AttributeError):
            module.no_such_name  # noqa: B018


_THREADS_DUMP = """
import json
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
import verifier
from verifier.models import DEFER_BUILD, Report, json_text
assert Report.__pydantic_complete__ is not DEFER_BUILD  # deferred: nothing built yet
ex = resources.files("verifier").joinpath("examples")
report = verifier.verify(ex.joinpath("screen_answer.txt").read_text(),
                         json.loads(ex.joinpath("screen_tools.json").read_text()), judge=False)
with ThreadPoolExecutor(8) as pool:  # eight first dumps at once, racing the deferred build
    texts = set(pool.map(lambda _: json_text(report), range(8)))
assert len(texts) == 1
print(json.dumps({"same": Report.model_validate_json(texts.pop()) == report}))
"""


def test_deferred_report_models_dump_the_same_from_racing_threads():
    env = {k: v for k, v in os.environ.items() if not k.startswith("VERIFIER_JUDGE_")}
    done = subprocess.run([sys.executable, "-c", _THREADS_DUMP], capture_output=True, text=True,
                          timeout=120, check=False, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == {"same": True}
