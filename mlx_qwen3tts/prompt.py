"""Prompt (prefill) assembly: pure functions from token ids and voice settings to embeddings.

Reference: `Qwen3TTSForConditionalGeneration.generate` and `generate_icl_prompt` in qwen_tts
0.1.1. Every position is the sum of a text track (`text_projection(text_embedding(id))`) and a
codec track (`codec_embedding(id)`), either possibly absent. The decode loop then adds one
`trailing` text vector per generated frame, and `pad` once those run out.
"""

from dataclasses import dataclass
from typing import Optional, Sequence

import mlx.core as mx

from .config import ModelConfig
from .tokenizer import TemplateIds
from .voices import Voice


@dataclass
class Prompt:
    embeds: mx.array  # (1, L, H)
    trailing: mx.array  # (N, H): text vectors added to the first N generated frames
    pad: mx.array  # (H,): tts_pad vector added after them
    text_tokens: int = 0  # target text length in tokens (0 when streamed in), for the frame budget


def language_id(config: ModelConfig, language: str, speaker: Optional[str]) -> Optional[int]:
    """Codec language id for the prompt (None for 'auto'); dialect speakers override Chinese/auto.
    `language` is a name of the model's (or 'auto') and `speaker` a preset's, as `request` checked."""
    tc = config.talker_config
    dialect = tc.spk_is_dialect.get(speaker, False) if speaker and language in ("chinese", "auto") else False
    language = dialect or language
    return None if language == "auto" else tc.codec_language_id[language]


def build_prompt(talker, config: ModelConfig, target: TemplateIds, voice: Voice = Voice(), language: str = "auto",
                 instruct_ids: Optional[Sequence[int]] = None, streaming: bool = False,
                 text_complete: bool = True) -> Prompt:
    """target: the text to speak in its template (`TextTokenizer.assistant`).

    text_complete=False (text still being written, streaming layout only): target.body is what the
    prefill consumes, and the caller supplies the text track that follows.
    """
    tc = config.talker_config
    text = talker.text_embed
    codec = lambda ids: talker.codec_embed(mx.array(list(ids)))  # noqa: E731  (n, H)

    tts_bos, tts_eos, tts_pad = text([config.tts_bos_token_id, config.tts_eos_token_id, config.tts_pad_token_id])
    lang = language_id(config, language, voice.speaker)
    if lang is None:
        prefix = [tc.codec_nothink_id, tc.codec_think_bos_id, tc.codec_think_eos_id]
    else:
        prefix = [tc.codec_think_id, tc.codec_think_bos_id, lang, tc.codec_think_eos_id]
    codec_track = [codec(prefix)]
    if voice.speaker:
        codec_track.append(codec([tc.spk_id[voice.speaker]]))
    elif voice.xvector is not None:
        codec_track.append(voice.xvector.reshape(1, -1).astype(codec_track[0].dtype))
    codec_track.append(codec([tc.codec_pad_id, tc.codec_bos_id]))
    codec_track = mx.concatenate(codec_track)

    n = codec_track.shape[0]
    text_track = mx.concatenate([mx.broadcast_to(tts_pad, (n - 2, tts_pad.shape[-1])), tts_bos[None]])
    parts = []
    if instruct_ids is not None:
        parts.append(text(instruct_ids))
    parts += [text(target.role), text_track + codec_track[:-1]]
    body = target.body

    if voice.ref_codes is not None:
        parts_icl, trailing = _icl(talker, tc, codec, voice, body, tts_eos, tts_pad, streaming, text_complete)
        parts += parts_icl
    elif streaming:
        parts.append(text(body[:1]) + codec_track[-1:])
        trailing = mx.concatenate([text(body[1:]), tts_eos[None]]) if len(body) > 1 else tts_eos[None]
    else:
        words = mx.concatenate([text(body), tts_eos[None]]) if body else tts_eos[None]
        parts.append(words + codec([tc.codec_pad_id] * words.shape[0]))
        parts.append(tts_pad[None] + codec([tc.codec_bos_id]))
        trailing = tts_pad[None]
    return Prompt(embeds=mx.concatenate(parts)[None], trailing=trailing, pad=tts_pad,
                  text_tokens=len(body) if text_complete else 0)


def _icl(talker, tc, codec, voice, body, tts_eos, tts_pad, streaming, text_complete):
    words = talker.text_embed(list(voice.ref_text_ids) + list(body))
    if text_complete:
        words = mx.concatenate([words, tts_eos[None]])
    codes = voice.ref_codes.astype(mx.int32)  # (T, 16)
    ref = talker.codec_embed(codes[:, 0])
    for q, table in enumerate(talker.code_predictor.model.codec_embedding):
        ref = ref + table(codes[:, q + 1])
    audio = mx.concatenate([codec([tc.codec_bos_id]), ref])
    if not streaming:
        return [words + codec([tc.codec_pad_id] * words.shape[0]), audio + tts_pad], tts_pad[None]
    n_text, n_audio = words.shape[0], audio.shape[0]
    if n_text > n_audio:
        return [words[:n_audio] + audio], words[n_audio:]
    padded = mx.concatenate([words, mx.broadcast_to(tts_pad, (n_audio - n_text, tts_pad.shape[-1]))])
    return [padded + audio], tts_pad[None]
