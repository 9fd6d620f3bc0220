// The bench's ceiling: the least a server can do for a tracking lookup — node's HTTP server and
// one driver findOne — against the same database. `npm run bench` reports every row against it.
import http from 'node:http';
import { MongoClient } from 'mongodb';

const client = await MongoClient.connect(process.env.MONGODB_URI);
const parcels = client.db().collection('parcels');
const server = http.createServer(async (req, res) => {
  const match = /^\/api\/tracking\/track\/([A-Za-z0-9]+)$/.exec(req.url ?? '');
  const parcel = match ? await parcels.findOne({ trackingNumber: match[1].toUpperCase() }) : null;
  res.writeHead(parcel ? 200 : 404, { 'content-type': 'application/json' });
  res.end(JSON.stringify(parcel ?? { error: 'Tracking number not found' }));
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening'));
process.on('SIGTERM', async () => {
  server.close();
  await client.close();
  process.exit(0);
});
