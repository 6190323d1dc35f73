// What `status` and `branches` need from a repository's remote lives with publishing (track uses it too).
export { remoteContext, type RemoteContext } from '../publish/remote-context.js';
