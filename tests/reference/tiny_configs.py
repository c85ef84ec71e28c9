"""Small configurations in the released Qwen3-TTS layout, used to build random reference checkpoints.

Token ids, codec vocabulary, codebook counts and codec up/down-sampling rates are the released
ones; widths and depths are shrunk so the checkpoints are a few MB. Imported by the reference
scripts (run in the torch environment) and benchmarks/checkpoints.py: plain dicts, no torch, no mlx.
"""

TEXT_TOKENIZER_FILES = ("vocab.json", "merges.txt", "tokenizer_config.json")
# generation_config.json as released.
GENERATION_CONFIG = {
    "do_sample": True, "temperature": 0.9, "top_k": 50, "top_p": 1.0, "repetition_penalty": 1.05,
    "subtalker_dosample": True, "subtalker_temperature": 0.9, "subtalker_top_k": 50,
    "subtalker_top_p": 1.0, "max_new_tokens": 8192,
}
LANGUAGES = {
    "chinese": 2055, "english": 2050, "german": 2053, "italian": 2070, "portuguese": 2071,
    "spanish": 2054, "japanese": 2058, "korean": 2064, "french": 2061, "russian": 2069,
    "beijing_dialect": 2074, "sichuan_dialect": 2062,
}
SPEAKERS = {"serena": 3066, "vivian": 3065, "uncle_fu": 3010, "ryan": 3061, "aiden": 2861,
            "ono_anna": 2873, "sohee": 2864, "eric": 2875, "dylan": 2878}
SPEAKER_DIALECT = {name: False for name in SPEAKERS}
SPEAKER_DIALECT.update({"eric": "sichuan_dialect", "dylan": "beijing_dialect"})

TOP_LEVEL = {
    "im_start_token_id": 151644, "im_end_token_id": 151645, "assistant_token_id": 77091,
    "tts_pad_token_id": 151671, "tts_bos_token_id": 151672, "tts_eos_token_id": 151673,
    "tokenizer_type": "qwen3_tts_tokenizer_12hz",
}

TEXT_VOCAB = 151936


def talker_config(size: str, variant: str) -> dict:
    """size '0b6': code predictor as wide as the talker (no projection); '1b7': wider talker."""
    hidden = 64 if size == "0b6" else 96
    cp_hidden = 64
    return {
        "vocab_size": 3072, "hidden_size": hidden, "intermediate_size": 2 * hidden,
        "num_hidden_layers": 3, "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16,
        "hidden_act": "silu", "max_position_embeddings": 32768, "rms_norm_eps": 1e-6,
        "rope_theta": 1000000,
        "rope_scaling": {"interleaved": True, "mrope_section": [4, 2, 2], "rope_type": "default"},
        "attention_bias": False, "num_code_groups": 16,
        "text_hidden_size": 32, "text_vocab_size": TEXT_VOCAB,
        "codec_eos_token_id": 2150, "codec_think_id": 2154, "codec_nothink_id": 2155,
        "codec_think_bos_id": 2156, "codec_think_eos_id": 2157, "codec_pad_id": 2148, "codec_bos_id": 2149,
        "codec_language_id": dict(LANGUAGES),
        "spk_id": dict(SPEAKERS) if variant == "custom_voice" else {},
        "spk_is_dialect": dict(SPEAKER_DIALECT) if variant == "custom_voice" else {},
        "code_predictor_config": {
            "vocab_size": 2048, "hidden_size": cp_hidden, "intermediate_size": 128,
            "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16,
            "hidden_act": "silu", "max_position_embeddings": 65536, "rms_norm_eps": 1e-6,
            "rope_theta": 1000000, "rope_scaling": None, "attention_bias": False, "num_code_groups": 16,
        },
    }


def speaker_encoder_config(size: str) -> dict:
    return {
        "mel_dim": 128, "enc_dim": 64 if size == "0b6" else 96,
        "enc_channels": [32, 32, 32, 32, 96], "enc_kernel_sizes": [5, 3, 3, 3, 1],
        "enc_dilations": [1, 2, 3, 4, 1], "enc_attention_channels": 16, "enc_res2net_scale": 4,
        "enc_se_channels": 16, "sample_rate": 24000,
    }


def model_config(size: str, variant: str) -> dict:
    cfg = dict(TOP_LEVEL)
    cfg.update({
        "architectures": ["Qwen3TTSForConditionalGeneration"], "model_type": "qwen3_tts",
        "tts_model_size": size, "tts_model_type": variant,
        "talker_config": talker_config(size, variant),
        "speaker_encoder_config": speaker_encoder_config(size),
    })
    return cfg


# Codec ("speech_tokenizer"): released rates (24 kHz, 1920 samples per frame, 16 of 32 quantizers,
# 2048 codes, 72-frame decoder window), small widths.
DECODER_CONFIG = {
    "codebook_size": 2048, "codebook_dim": 16, "hidden_size": 32, "latent_dim": 32,
    "max_position_embeddings": 8000, "rope_theta": 10000, "num_attention_heads": 4,
    "num_key_value_heads": 4, "head_dim": 8, "attention_bias": False, "sliding_window": 72,
    "intermediate_size": 64, "hidden_act": "silu", "layer_scale_initial_scale": 0.01,
    "rms_norm_eps": 1e-5, "num_hidden_layers": 2, "num_quantizers": 16,
    "upsample_rates": [8, 5, 4, 3], "upsampling_ratios": [2, 2], "decoder_dim": 32,
}
ENCODER_CONFIG = {
    "sampling_rate": 24000, "frame_rate": 12.5, "audio_channels": 1, "hidden_size": 32,
    "num_filters": 4, "num_residual_layers": 1, "upsampling_ratios": [8, 6, 5, 4], "kernel_size": 7,
    "last_kernel_size": 3, "residual_kernel_size": 3, "dilation_growth_rate": 2,
    "use_causal_conv": True, "pad_mode": "constant", "compress": 2, "trim_right_ratio": 1.0,
    "codebook_size": 2048, "codebook_dim": 16, "num_quantizers": 32, "use_conv_shortcut": False,
    "vector_quantization_hidden_dimension": 16, "num_semantic_quantizers": 1, "upsample_groups": 32,
    "num_hidden_layers": 2, "intermediate_size": 64, "num_attention_heads": 4, "num_key_value_heads": 4,
    "head_dim": 8, "hidden_act": "gelu", "max_position_embeddings": 8000, "norm_eps": 1e-5,
    "use_cache": False, "use_streaming": False, "rope_theta": 10000.0, "sliding_window": 250,
    "layer_scale_initial_scale": 0.01, "attention_bias": False,
}
SPEECH_TOKENIZER_CONFIG = {
    "architectures": ["Qwen3TTSTokenizerV2Model"], "model_type": "qwen3_tts_tokenizer_12hz",
    "encoder_valid_num_quantizers": 16, "input_sample_rate": 24000, "output_sample_rate": 24000,
    "decode_upsample_rate": 1920, "encode_downsample_rate": 1920,
    "encoder_config": ENCODER_CONFIG, "decoder_config": DECODER_CONFIG,
}

# The checkpoints the fixtures cover: (name, size, variant).
CHECKPOINTS = [
    ("base-0b6", "0b6", "base"), ("base-1b7", "1b7", "base"),
    ("custom_voice-0b6", "0b6", "custom_voice"), ("custom_voice-1b7", "1b7", "custom_voice"),
    ("voice_design-1b7", "1b7", "voice_design"),
]
