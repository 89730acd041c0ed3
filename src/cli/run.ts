import { main } from './main';

/*
 * The command-line tool as a program of its own: inside the standalone executable it is a separate
 * bundle (an asset of the Node single executable), which the executable runs only when run by hand.
 */
void main(process.argv.slice(2)).then((code) => process.exit(code));
