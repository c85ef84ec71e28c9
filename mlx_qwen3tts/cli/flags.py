"""The command's names for the request layer's fields (errors name the option the user typed) and which of
its options are paths (a leading ~ is expanded)."""

from ..request_fields import FIELDS, field_names

DEFAULT_MODEL = "Qwen/Qwen3-TTS-12Hz-0.6B-CustomVoice"
# The request layer's fields as this command's options (errors name the option the user typed).
FLAGS = {**field_names(**{**{name: "--" + name.replace("_", "-") for name in FIELDS}, "deltas": "--text-stream"}),
         "save_voice": "--save-voice", "split": "--split", "format": "--format", "codes": "--from-codes",
         "mlx_qwen3tts.longform": "--text-file FILE", "check": "--check", "check_threshold": "--check-threshold",
         "check_tries": "--check-tries", "asr": "--asr"}
PATH_OPTIONS = ("model", "output", "codes_output", "ref_audio", "save_voice", "voice", "batch_file", "from_codes",
                "text_file", "captions", "read_along", "lexicon", "aligner", "check")
