import { configure } from '@testing-library/react';

// findBy… and waitFor poll until their condition holds; Testing Library gives up after 1 s by default.
// A step such as "a chapter completes → the page reads the story again → the choices render" is a
// chain of promises and lazy chunks that took over a second with four test processes on two cores
// (StoryPage.test.tsx failed on it at load average 16). These waits judge what appears, never how fast.
configure({ asyncUtilTimeout: 10_000 });
