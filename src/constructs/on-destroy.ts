/** What removing a construct from the stack does to the server's settings. */
export enum OnDestroy {
  /** Leave the settings as they are (the default, as for every construct). */
  RETAIN = 'retain',
  /**
   * Put back the values observed before this construct first changed them. Needs Bridge.PROVIDER,
   * which keeps those values beside the state and can tell a removal from a replacement.
   */
  RESTORE = 'restore',
}
