// `run --push`: the CLI's name for publishing's push (src/publish/push.ts), where the logic lives.
export { pushReport, resolvePushTarget, type PushOptions, type PushTarget } from '../publish/push.js';
