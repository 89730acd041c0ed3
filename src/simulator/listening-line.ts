/**
 * The first line `simulator` prints, followed by the API's base URL: what `testing.SimulatedAccount`
 * waits for in the simulator's output, and what a CI step can wait for too.
 */
export const LISTENING_LINE = 'Hosting API simulator listening on ';
