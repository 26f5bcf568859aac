-- CreateTable
CREATE TABLE "Experiment" (
    "id" UUID NOT NULL,
    "serviceId" UUID NOT NULL,
    "name" VARCHAR(120) NOT NULL,
    "hypothesis" VARCHAR(2000) NOT NULL DEFAULT '',
    "variants" JSONB NOT NULL,
    "indicators" JSONB NOT NULL,
    "judgedPercentile" DOUBLE PRECISION NOT NULL DEFAULT 0.95,
    "qualityMaxDrop" DOUBLE PRECISION,
    "startsAt" TIMESTAMPTZ(3),
    "endsAt" TIMESTAMPTZ(3),
    "status" VARCHAR(20) NOT NULL DEFAULT 'running',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" VARCHAR(120) NOT NULL,

    CONSTRAINT "Experiment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ExperimentVariant" (
    "experimentId" UUID NOT NULL,
    "variant" VARCHAR(60) NOT NULL,
    "requests" INTEGER NOT NULL DEFAULT 0,
    "latency" JSONB NOT NULL,
    "cost" JSONB NOT NULL,
    "qualitySum" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "qualityCount" INTEGER NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ExperimentVariant_pkey" PRIMARY KEY ("experimentId","variant")
);

-- CreateTable
CREATE TABLE "Optimization" (
    "id" UUID NOT NULL,
    "name" VARCHAR(120) NOT NULL,
    "component" VARCHAR(80) NOT NULL,
    "savingMs" DOUBLE PRECISION NOT NULL,
    "costPct" DOUBLE PRECISION NOT NULL,
    "note" VARCHAR(500) NOT NULL DEFAULT '',
    "source" VARCHAR(120) NOT NULL DEFAULT 'manual',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Optimization_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Optimization_name_key" ON "Optimization"("name");

-- AddForeignKey
ALTER TABLE "Experiment" ADD CONSTRAINT "Experiment_serviceId_fkey" FOREIGN KEY ("serviceId") REFERENCES "Service"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ExperimentVariant" ADD CONSTRAINT "ExperimentVariant_experimentId_fkey" FOREIGN KEY ("experimentId") REFERENCES "Experiment"("id") ON DELETE CASCADE ON UPDATE CASCADE;
