export { createRenderer, type BrowserPool, type RendererOptions } from './renderer.js';
export { RenderError, type RenderErrorCode } from './errors.js';
export { BROWSER_ARGS, checkBrowser, RENDER_MEMORY_CAP } from './browser.js';
export type { DataRequest, HandedAnswer, Rendered, Renderer, RenderOptions } from './types.js';
