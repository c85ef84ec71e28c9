"""The maintainers' scripts in convert/: every variant into its published folders, and the
quantization report, run on the tiny released-layout checkpoints."""

import json

import pytest

import mlx_qwen3tts
from convert import convert_all, quantization_report
from fixture_checkpoints import checkpoint_dir


@pytest.fixture(scope="module")
def source_root(tmp_path_factory):
    """Two tiny checkpoints under the names of the released repos."""
    root = tmp_path_factory.mktemp("released")
    for name, variant in (("base-0b6", "0.6B-Base"), ("custom_voice-0b6", "0.6B-CustomVoice")):
        (root / f"Qwen3-TTS-12Hz-{variant}").symlink_to(checkpoint_dir(name, tmp_path_factory.getbasetemp()))
    return root


def test_convert_all_writes_loadable_folders(source_root, tmp_path, capsys):
    out = tmp_path / "mlx"
    args = ["--source-root", str(source_root), "--output-root", str(out), "--variants", "0.6B-Base",
            "0.6B-CustomVoice", "--formats", "bf16", "mixed", "--group-size", "32"]
    written = convert_all.main(args)
    names = sorted(p.name for p in written)
    assert names == sorted(f"Qwen3-TTS-12Hz-0.6B-{v}-{f}" for v in ("Base", "CustomVoice")
                           for f in ("bfloat16", "talker4-cp8"))
    assert sorted(p.name for p in out.iterdir()) == names
    for folder in written:
        config = json.loads((folder / "config.json").read_text())
        assert ("quantization" in config) == folder.name.endswith("talker4-cp8")
        assert f"\n# {folder.name}\n" in (folder / "README.md").read_text()
        tts = mlx_qwen3tts.load(str(folder))
        codes = tts.generate("Hello there.", language="english", temperature=0.0, max_tokens=3, decode=False).codes
        assert codes.shape[1] == 16 and codes.shape[0] >= 1

    capsys.readouterr()
    assert convert_all.main(args) == []  # converted folders are complete: a second run skips them
    assert capsys.readouterr().err.count("skipped") == 4


def test_convert_all_names_missing_sources(source_root, tmp_path, capsys):
    with pytest.raises(SystemExit) as exit:
        convert_all.main(["--source-root", str(source_root), "--output-root", str(tmp_path / "out"),
                          "--variants", "1.7B-VoiceDesign"])
    err = capsys.readouterr().err
    assert exit.value.code == 2 and err.count("\n") == 1 and "Qwen3-TTS-12Hz-1.7B-VoiceDesign" in err
    assert not (tmp_path / "out").exists()


def test_convert_all_names_its_own_options(source_root, tmp_path, capsys):
    with pytest.raises(SystemExit) as exit:
        convert_all.main(["--source-root", str(source_root), "--output-root", str(tmp_path / "out"),
                          "--variants", "0.6B-Base", "--formats", "bf16", "--group-size", "48"])
    err = capsys.readouterr().err
    assert exit.value.code == 2 and err == "error: --group-size must be one of 32, 64, 128, got 48\n"


def test_quantization_report_on_tiny_shapes(tmp_path, capsys):
    report = tmp_path / "rows.json"
    quantization_report.main(["--tiny", "--frames", "4", "--recipes", "bf16", "talker4-cp8", "--json", str(report)])
    rows = {r["recipe"]: r for r in json.loads(report.read_text())}
    assert set(rows) == {"bf16", "talker4-cp8"}
    assert rows["talker4-cp8"]["size_mb"] < rows["bf16"]["size_mb"]
    # bf16 against the float32 reference: small but nonzero error, and most greedy choices kept.
    assert 0 < rows["bf16"]["talker_rel_err"] < 0.05 and rows["bf16"]["c0_agree"] >= 0.5
    assert rows["talker4-cp8"]["talker_rel_err"] > rows["bf16"]["talker_rel_err"]
    assert "| talker4-cp8 |" in capsys.readouterr().out
