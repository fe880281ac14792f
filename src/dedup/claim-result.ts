export type ClaimVerdict = 'accepted' | 'duplicate';

export interface EventClaim {
  id: string;
  result: ClaimVerdict;
}
