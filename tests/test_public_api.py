import inspect

import verifier


def test_exported_names_are_pinned():
    assert sorted(verifier.__all__) == sorted([
        "verify", "Report", "Item", "Evidence", "Warnings", "Badge", "Highlight", "Suggestion", "Policy",
        "Haystack", "VerifierError", "InputError", "JSONInputError", "LimitError", "DeadlineExceeded", "__version__",
        "verify_messages", "averify", "averify_messages", "TranscriptError", "Judge", "JudgeError", "JudgeReply", "Judgement", "OpenAIJudge", "Note", "SentenceCheck",
    ])
    for name in verifier.__all__:
        assert hasattr(verifier, name)


def test_verify_signature_is_pinned():
    sig = inspect.signature(verifier.verify)
    params = list(sig.parameters.values())
    assert [p.name for p in params[:2]] == ["answer", "tool_results"]
    keyword_only = {p.name: p.default for p in params if p.kind is p.KEYWORD_ONLY}
    assert keyword_only == {"question": None, "locale": "en_US", "policy": None, "haystack": None,
                            "history": None, "judge": None}


def test_errors_are_value_errors():
    for error in (verifier.VerifierError, verifier.InputError, verifier.JSONInputError, verifier.LimitError,
                  verifier.TranscriptError, verifier.DeadlineExceeded):
        assert issubclass(error, ValueError)
