// The microphone's samples, block by block, to the page (an AudioWorklet: ScriptProcessorNode is deprecated).
class Recorder extends AudioWorkletProcessor {
  process(inputs, outputs) {
    const channel = inputs[0] && inputs[0][0];
    if (channel) this.port.postMessage(channel.slice(0));
    return true;
  }
}
registerProcessor("recorder", Recorder);
