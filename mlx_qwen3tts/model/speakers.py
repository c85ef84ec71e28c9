"""The released CustomVoice speakers' native languages, as upstream's model card lists them (config.json
names only the dialects); each speaks every language of the model, best its own. In the request layer's
language names. Light on purpose: the command line's --help reads it."""

NATIVE_LANGUAGES = {"vivian": "chinese", "serena": "chinese", "uncle_fu": "chinese", "dylan": "beijing_dialect",
                    "eric": "sichuan_dialect", "ryan": "english", "aiden": "english", "ono_anna": "japanese",
                    "sohee": "korean"}
