"""The stages of the verify pass, one module each: ``run(state)`` and the State fields it
``REQUIRES`` and ``ASSIGNS``. ``verifier.pipeline.STAGES`` puts them in order."""
