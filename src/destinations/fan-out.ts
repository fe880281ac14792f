/**
 * The name the fan-out step (src/steps/destinations) is recorded under in message_steps: the
 * destinations' lease reads that record to know an event's deliveries all exist.
 */
export const FAN_OUT_STEP = 'destinations';
