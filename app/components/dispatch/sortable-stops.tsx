import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type DragEndEvent,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import {
  arrayMove,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useEffect, useState, type ReactNode } from 'react';

type SortableStop = { id: string; trackingNumber: string };

/**
 * A planned run's stops dragged into order on the Dispatch page (with JavaScript; the Up and Down
 * buttons stay): dnd-kit with its pointer and keyboard sensors (Space picks a stop up, the arrows
 * move it, Space drops it) and announcements that name the stop by its tracking number. The
 * page saves the drop through the same action as the buttons (`onMove`). Loaded by the Dispatch
 * page only, once it is interactive.
 */
export default function SortableStops({
  stops,
  onMove,
  children,
}: {
  stops: SortableStop[];
  onMove: (stop: SortableStop, position: number) => void;
  /** A stop's row, drawn by the page, by its id and place. */
  children: (id: string, index: number) => ReactNode;
}) {
  const [order, setOrder] = useState(stops);
  // The server's order once it answers.
  useEffect(() => setOrder(stops), [stops]);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const at = (id: UniqueIdentifier) => order.findIndex((stop) => stop.id === id);
  const name = (id: UniqueIdentifier) => order[at(id)]?.trackingNumber ?? '';
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = at(active.id);
    const to = at(over.id);
    setOrder(arrayMove(order, from, to));
    onMove(order[from]!, to);
  };
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{
        screenReaderInstructions: {
          draggable:
            'To move a stop, press Space, then the up and down arrows, and Space again to drop it; Escape cancels.',
        },
        announcements: {
          onDragStart: ({ active }) => `Picked up ${name(active.id)}, stop ${at(active.id) + 1}.`,
          onDragOver: ({ active, over }) =>
            over ? `${name(active.id)} over stop ${at(over.id) + 1}.` : '',
          onDragEnd: ({ active, over }) =>
            over ? `${name(active.id)} dropped at stop ${at(over.id) + 1}.` : '',
          onDragCancel: ({ active }) => `${name(active.id)} left where it was.`,
        },
      }}
    >
      <SortableContext items={order} strategy={verticalListSortingStrategy}>
        <ol className="divide-y divide-gray-100">
          {order.map((stop, i) => (
            <SortableRow key={stop.id} stop={stop}>
              {children(stop.id, i)}
            </SortableRow>
          ))}
        </ol>
      </SortableContext>
    </DndContext>
  );
}

function SortableRow({ stop, children }: { stop: SortableStop; children: ReactNode }) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({
    id: stop.id,
  });
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      className={`flex items-start gap-2 bg-white py-2 text-sm ${isDragging ? 'relative z-10 shadow-md' : ''}`}
    >
      <button
        type="button"
        className="btn-secondary min-h-11 shrink-0 cursor-grab touch-none px-2"
        aria-label={`Drag ${stop.trackingNumber}`}
        {...attributes}
        {...listeners}
      >
        ⠿
      </button>
      {children}
    </li>
  );
}
