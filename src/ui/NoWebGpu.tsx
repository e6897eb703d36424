// What a person sees when this browser cannot run WebGPU: why, and what works.
import type { NoWebGpuError } from '../gpu/device';

const WHY: Record<NoWebGpuError['reason'], string> = {
  'no-api': 'This browser does not expose WebGPU (navigator.gpu is missing).',
  'no-adapter': 'This browser supports WebGPU, but it found no usable GPU adapter.',
  'device-failed': 'A GPU adapter was found, but it refused to open a device.',
};

export function NoWebGpu({ reason, detail }: { reason: NoWebGpuError['reason']; detail: string }) {
  return (
    <section className="no-webgpu" data-testid="no-webgpu" role="alert">
      <h2>This playground needs WebGPU</h2>
      <p>{WHY[reason]}</p>
      <p>The policy trains entirely on your GPU through WebGPU, so nothing can run without it. What works:</p>
      <ul>
        <li>
          <b>Chrome or Edge 113+</b> on Windows, macOS and ChromeOS: WebGPU is on by default.
        </li>
        <li>
          <b>Chrome on Linux</b>: start it with <code>--enable-unsafe-webgpu</code> (and, without a Vulkan driver, it
          falls back to the SwiftShader CPU emulation: correct but slow).
        </li>
        <li>
          <b>Safari 26+</b> on macOS and iOS; <b>Firefox 141+</b> on Windows (other platforms: enable{' '}
          <code>dom.webgpu.enabled</code>).
        </li>
        <li>The page must be served over https or from localhost (WebGPU needs a secure context).</li>
      </ul>
      <p className="detail">Details: {detail}</p>
    </section>
  );
}
