import { useState } from 'react';
import { useAccess } from '../shell/access.tsx';

/**
 * The tenant a list shows or a create writes to: the user's current one; a super user may choose
 * another (the services take any tenant from a super user, docs/interface.md#identity).
 */
export function useTenant(): [number, (crProcessId: number) => void, boolean] {
  const { me } = useAccess();
  const [chosen, setChosen] = useState<number | undefined>(undefined);
  return [me.superUser && chosen !== undefined ? chosen : me.crProcessId, setChosen, me.superUser];
}
