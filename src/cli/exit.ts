// Exit statuses, named once.
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
/** 128 + SIGINT: the run was interrupted (SIGINT/SIGTERM). */
export const EXIT_INTERRUPTED = 130;
