// Browser: bundle every shaders/*.wgsl as text through Vite's ?raw import.
import { registerShaderSources } from './shaders';

const files = import.meta.glob('../../shaders/*.wgsl', { query: '?raw', import: 'default', eager: true }) as Record<
  string,
  string
>;
registerShaderSources(files);
