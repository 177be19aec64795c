"""Thin integrations with the frameworks assistants are built and tested with, each in
its own module and extra; ``import verifier`` never imports any of them.

- :mod:`verifier.integrations.pytest_plugin`: ``assert_verified`` and the
  ``verify_answer`` fixture (registered as a pytest plugin by the package; no extra).
- :mod:`verifier.integrations.agents`: an OpenAI Agents SDK output guardrail
  (``pip install 'finverify[agents]'``).
- :mod:`verifier.integrations.langchain`: a LangChain Runnable over a run's messages
  (``pip install 'finverify[langchain]'``).
"""
