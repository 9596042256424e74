// @cloudapi/docs: the documentation site's build pieces and the static server that serves it.
export { deriveDocsDocument, describeGrant, extensionLines } from './derive.mjs';
export { codeSamples, curlSample, clientSample } from './samples.mjs';
export { docsDistDir, serveStatic } from './serve.mjs';
export { pageData } from './page-data.mjs';
export { createLiveChannel, liveRefusal } from './live.mjs';
