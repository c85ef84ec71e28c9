import pytest

_MODELS = {}

@pytest.fixture(scope="session")
def load_tiny(tmp_path_factory):
    """load_tiny(name) -> TTS for a fixture checkpoint, float32, loaded once per session."""
    import mlx.core as mx

    import mlx_qwen3tts
    from fixture_checkpoints import checkpoint_dir

    root = tmp_path_factory.getbasetemp()

    def load(name):
        if name not in _MODELS:
            _MODELS[name] = mlx_qwen3tts.load(str(checkpoint_dir(name, root)), dtype=mx.float32)
        return _MODELS[name]

    return load
