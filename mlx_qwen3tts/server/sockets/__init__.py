"""WebSocket `/v1/audio/speech/stream`: one session core and a dialect adapter each (ours, vLLM-Omni's)."""
