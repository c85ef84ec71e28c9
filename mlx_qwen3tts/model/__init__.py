"""The model: configuration, checkpoint loading and its layouts, the talker with its code predictor, the
speaker encoder; stateless modules (generation state belongs to the decode loop)."""
