"""OpenAI's speech API over HTTP (`api`: speech, SSE, the batch, voices, listings) and vLLM-Omni's shapes
where its HTTP dialect differs (`omni_http`)."""
