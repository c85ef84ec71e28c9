"""Prompt (prefill) assembly: pure functions from token ids and voice settings to embeddings.

Reference: `Qwen3TTSForConditionalGeneration.generate` and `generate_icl_prompt` in qwen_tts
0.1.1. Every position is the sum of a text track (`text_projection(text_embedding(id))`) and a
codec track (`codec_embedding(id)`), either possibly absent. The decode loop then adds one
`trailing` text vector per generated frame, and `pad` once those run out.
"""

from dataclasses import dataclass
from typing import NamedTuple, Optional, Sequence

import mlx.core as mx

from ..model.config import ModelConfig
from ..tokenizer import TemplateIds
from ..voices import Voice


@dataclass
class Prompt:
    embeds: mx.array  # (1, L, H)
    trailing: mx.array  # (N, H): text vectors added to the first N generated frames
    pad: mx.array  # (H,): tts_pad vector added after them
    text_tokens: int = 0  # target text length in tokens (0 when streamed in), for the frame budget


def language_id(config: ModelConfig, language: str, speaker: Optional[str],
                dialect: Optional[str] = None) -> Optional[int]:
    """Codec language id for the prompt (None for 'auto'); dialect speakers (and blends of presets that all
    speak one dialect: `dialect`) override Chinese/auto. `language` is a name of the model's (or 'auto') and
    `speaker` a preset's, as `request` checked."""
    tc = config.talker_config
    dialect = (tc.spk_is_dialect.get(speaker, False) if speaker else dialect) or False
    language = (dialect if language in ("chinese", "auto") else False) or language
    return None if language == "auto" else tc.codec_language_id[language]


def build_prompt(talker, config: ModelConfig, target: TemplateIds, voice: Voice = Voice(), *, language: str = "auto",
                 instruct_ids: Optional[Sequence[int]] = None, streaming: bool = False,
                 text_complete: bool = True) -> Prompt:
    """target: the text to speak in its template (`TextTokenizer.assistant`).

    text_complete=False (text still being written, streaming layout only): target.body is what the
    prefill consumes, and the caller supplies the text track that follows.
    """
    tc = config.talker_config
    text = talker.text_embed
    specials = _Specials(*text([config.tts_bos_token_id, config.tts_eos_token_id, config.tts_pad_token_id]))
    codec_track = _codec_track(talker, config, voice, language)

    n = codec_track.shape[0]
    text_track = mx.concatenate([mx.broadcast_to(specials.pad, (n - 2, specials.pad.shape[-1])), specials.bos[None]])
    parts = []
    if instruct_ids is not None:
        parts.append(text(instruct_ids))
    parts += [text(target.role), text_track + codec_track[:-1]]
    body, eos, pad = target.body, specials.eos[None], specials.pad[None]

    if voice.ref_codes is not None:
        words = text(list(voice.ref_text_ids) + list(body))
        if text_complete:
            words = mx.concatenate([words, specials.eos[None]])
        parts_icl, trailing = _icl(talker, tc, voice, words, specials, streaming=streaming)
        parts += parts_icl
    elif streaming:
        parts.append(text(body[:1]) + codec_track[-1:])
        trailing = mx.concatenate([text(body[1:]), eos]) if len(body) > 1 else eos
    else:
        words = mx.concatenate([text(body), eos]) if body else eos
        parts.append(words + _codec(talker, [tc.codec_pad_id] * words.shape[0]))
        parts.append(pad + _codec(talker, [tc.codec_bos_id]))
        trailing = pad
    return Prompt(embeds=mx.concatenate(parts)[None], trailing=trailing, pad=specials.pad,
                  text_tokens=len(body) if text_complete else 0)


class _Specials(NamedTuple):
    """The text track's tts_bos, tts_eos and tts_pad vectors, each (H,)."""

    bos: mx.array
    eos: mx.array
    pad: mx.array


def _codec(talker, ids) -> mx.array:
    return talker.codec_embed(mx.array(list(ids)))  # (n, H)


def _codec_track(talker, config: ModelConfig, voice: Voice, language: str) -> mx.array:
    """Think/language prefix, then the voice (preset speaker, or a vector: a cloned x-vector or a blend), then pad
    and bos."""
    tc = config.talker_config
    lang = language_id(config, language, voice.speaker, voice.dialect)
    if lang is None:
        prefix = [tc.codec_nothink_id, tc.codec_think_bos_id, tc.codec_think_eos_id]
    else:
        prefix = [tc.codec_think_id, tc.codec_think_bos_id, lang, tc.codec_think_eos_id]
    track = [_codec(talker, prefix)]
    if voice.speaker:
        track.append(_codec(talker, [tc.spk_id[voice.speaker]]))
    elif voice.xvector is not None:
        track.append(voice.xvector.reshape(1, -1).astype(track[0].dtype))
    track.append(_codec(talker, [tc.codec_pad_id, tc.codec_bos_id]))
    return mx.concatenate(track)


def _icl(talker, tc, voice: Voice, words: mx.array, specials: _Specials, *, streaming: bool):
    """In-context cloning: `words` (the reference transcript and the target text, embedded; its end if the text
    is complete) over the reference codes."""
    codes = voice.ref_codes.astype(mx.int32)  # (T, 16)
    ref = talker.codec_embed(codes[:, 0])
    for q, table in enumerate(talker.code_predictor.model.codec_embedding):
        ref = ref + table(codes[:, q + 1])
    audio = mx.concatenate([_codec(talker, [tc.codec_bos_id]), ref])
    pad = specials.pad
    if not streaming:
        return [words + _codec(talker, [tc.codec_pad_id] * words.shape[0]), audio + pad], pad[None]
    n_text, n_audio = words.shape[0], audio.shape[0]
    if n_text > n_audio:
        return [words[:n_audio] + audio], words[n_audio:]
    padded = mx.concatenate([words, mx.broadcast_to(pad, (n_audio - n_text, pad.shape[-1]))])
    return [padded + audio], pad[None]
