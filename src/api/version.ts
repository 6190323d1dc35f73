// scion's version (its package.json's), for `--version` and whatever else names the running scion.
export { ownVersion as scionVersion } from '../util/own-files.js';
