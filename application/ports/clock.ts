/** The current time; tests pass a controllable one. */
export interface Clock {
  now(): Date;
}
